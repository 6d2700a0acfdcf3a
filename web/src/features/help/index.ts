// The help feature's public face: the page the router mounts.
export { HelpPage } from './HelpPage.js';
