// The auth-service's public face: what the composition root and other modules may use.

export { accountRoutes } from './account.routes.js';
export { accountService } from './account.service.js';
export { authMailPreparers } from './auth.mail.js';
export { cutAccess } from './auth.repo.js';
export { authRoutes } from './auth.routes.js';
export { type AuthService, authService } from './auth.service.js';
export { adminPasswordProblem, ensureAdmin, promoteAdmin } from './bootstrap.js';
export { oidcRoutes } from './oidc.routes.js';
export { oidcService } from './oidc.service.js';
export { authPersonalData } from './personal-data.js';
export { registerThrottleCleanup, throttleRoutes } from './throttle.routes.js';
export { type ThrottleService, throttleService } from './throttle.service.js';
