// Placeholder: the generic layout until the tricks family's own table is drawn.
import { createGenericLayout } from './generic.js';

export function createTricksLayout(game) {
  return { ...createGenericLayout(game), family: 'tricks' };
}
