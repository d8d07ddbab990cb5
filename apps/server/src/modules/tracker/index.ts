/** What other modules may use of the tracker module: the hours upload's form (the original calls read theirs with it). */
export { HOURS_UPLOAD_FORM } from './tracker.routes.js';
