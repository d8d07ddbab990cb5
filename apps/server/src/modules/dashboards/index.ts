/** What other modules may use of the dashboards module: the clone form's files and limits (the original calls read theirs with them). */
export { CLONE_UPLOAD_FORM } from './dashboards.routes.js';
