// Placeholder: the generic layout until the betting family's own table is drawn.
import { createGenericLayout } from './generic.js';

export function createBettingLayout(game) {
  return { ...createGenericLayout(game), family: 'betting' };
}
