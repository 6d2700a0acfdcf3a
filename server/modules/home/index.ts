// The home-service's public face: the composition root mounts the home (and the search) with
// the other modules' lists it is built from.
export { homeRoutes } from './home.routes.js';
export { type HomeService, homeService } from './home.service.js';
export { type SearchService, searchService } from './search.service.js';
