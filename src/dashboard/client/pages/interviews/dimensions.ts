import { h } from '../../kit/dom.js';
import { figure } from './format.js';
import type { Dimension } from './model.js';

/** The separator of a dimension line in the create form: `Problem solving | 60 | Breaks a problem down`. */
const SEPARATOR = '|';

/**
 * The form's dimension lines as the API's `evaluationDimensions`. A weight that is no number is sent as typed, so the
 * API's message (beside the field) says what is wrong rather than this parser.
 */
export function parseDimensions(lines: string): { name: string; weight: number | string; description: string }[] {
  return lines
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '', weight = '', ...description] = line.split(SEPARATOR).map((part) => part.trim());
      const parsed = Number(weight);
      return { name, weight: weight !== '' && Number.isFinite(parsed) ? parsed : weight, description: description.join(` ${SEPARATOR} `) };
    });
}

export const DIMENSIONS_HINT = `One dimension a line: name ${SEPARATOR} weight ${SEPARATOR} description. The weights must sum to 100.`;

/** Dimensions with their weights, for a list cell. */
export function dimensionList(dimensions: Dimension[]): HTMLElement {
  return h(
    'ul',
    { class: 'iv-dimensions' },
    dimensions.map((dimension) => h('li', null, `${dimension.name}: ${figure(dimension.weight)} %`)),
  );
}
