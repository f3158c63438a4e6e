// What the other features use of the settings (the unsubscribe flow follows the two alert switches).
export { currentSettings, useSettings, useUpdateSettings } from './api/settings';
