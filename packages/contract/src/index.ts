export * from './roles.js';
export * from './paths.js';
export * from './menu.js';
export * from './constants.js';
export * from './usage.js';
export * from './auth.js';
export * from './errors.js';
export * from './operations.js';
