// The WebAssembly global Node has (the server's TypeScript libraries leave it out with the DOM): only what the
// server uses, to compile PGlite's engine once per process.
declare namespace WebAssembly {
  function compile(bytes: Uint8Array): Promise<Module>;
}
