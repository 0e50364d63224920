import { render as usagePage } from './usage.js';

/** Every user's usage (GET /admin/v1/usage) with totals per user, model and day: the usage page in operator mode. */
export function render(root, ctx) {
  return usagePage(root, ctx, true);
}
