export { sandboxPlugin, type SandboxOptions } from './sandbox-plugin.js';
