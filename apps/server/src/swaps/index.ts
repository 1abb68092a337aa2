export { createSwapsGuard, principalOf, type SwapsGuard, type SwapsGuardDeps } from './guard.js';
export { createGuardedApp, type GuardedAppOptions, type SwapsApp } from './guarded-app.js';
export { errorB, okB, type RateLimitInfo, type SwapsEnv, type SwapsVariables } from './render.js';
