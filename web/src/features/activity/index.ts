// What the other features use of the activity history; the rest stays inside.
export { undoActivity } from './api/undo-activity';
