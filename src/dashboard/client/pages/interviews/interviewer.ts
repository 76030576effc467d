import { api } from '../../kit/api.js';
import { table } from '../../kit/table.js';
import { figure, words } from './format.js';
import { DEFAULT_SCALE, type Dimension, type Interviewer, type One } from './model.js';
import { facts, layout, section } from './parts.js';

export async function interviewerPage(params: Record<string, string>): Promise<Node> {
  const interviewer = (await api<One<Interviewer>>('GET', `/interviewers/${params.id}`)).data;
  return layout(
    interviewer.name,
    facts([
      ['Use case', words(interviewer.useCase)],
      ['Scale', interviewer.scoring?.scale ?? DEFAULT_SCALE],
      ['Public', interviewer.isPublic ? 'yes' : 'no'],
      ['Persona', interviewer.persona],
    ]),
    section(
      'dimensions-heading',
      'Evaluation dimensions',
      table<Dimension>(
        [
          { label: 'Dimension', cell: (dimension) => dimension.name },
          { label: 'Weight', cell: (dimension) => `${figure(dimension.weight)} %` },
          { label: 'Description', cell: (dimension) => dimension.description || '—' },
        ],
        interviewer.evaluationDimensions,
        'No dimensions.',
      ),
    ),
  );
}
