// The ranking-service module's public face: its routes and services (rankings, their rules and
// prizes), for the composition root.

export { type CloseStandings, closeStandings } from './close-standings.js';
export { rankingsPersonalData } from './personal-data.js';
export { rankingsRoutes } from './rankings.routes.js';
export { type RankingsService, rankingsService } from './rankings.service.js';
export { RULE_PRESETS } from './rule-presets.js';
export { type RulesService, rulesService } from './rules.service.js';
