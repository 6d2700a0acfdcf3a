// The user-mgmt module's public face: its routes and services, and how a user is described to
// the API (the one place a student's team code is read with their teacher).
export { studentScopeOf } from './people.policy.js';
// The students an actor may see, as SQL on `users`: the top bar's search uses the lists' scope.
export { studentScopeSql } from './people.repo.js';
export { peopleRoutes } from './people.routes.js';
export { type PeopleService, peopleService } from './people.service.js';
export { personalDataRoutes } from './personal-data.routes.js';
export { type PersonalDataService, personalDataService } from './personal-data.service.js';
export {
  ANONYMISED_EMAIL_LIKE,
  isPlaceholderEmail,
  PLACEHOLDER_DOMAIN,
} from './placeholder.js';
export { usersRoutes } from './users.routes.js';
export { describeUser, describeUsers, type UsersService, usersService } from './users.service.js';
