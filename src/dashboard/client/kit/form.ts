import { ApiError, type Issue } from './api.js';
import { clear, h } from './dom.js';

export type Field = {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'textarea' | 'select' | 'checkbox' | 'datetime-local' | 'json';
  required?: boolean;
  options?: { value: string; label: string }[];
  value?: string;
  hint?: string;
};

let formCount = 0;

function control(field: Field, id: string, describedBy: string): HTMLElement {
  const common = { id, name: field.name, required: field.required, 'aria-describedby': describedBy || undefined };
  switch (field.type) {
    case 'textarea':
    case 'json':
      return h(
        'textarea',
        { ...common, rows: field.type === 'json' ? 6 : 4, spellcheck: field.type === 'json' ? 'false' : undefined },
        field.value ?? '',
      );
    case 'select':
      return h(
        'select',
        common,
        (field.options ?? []).map((option) => h('option', { value: option.value, selected: option.value === field.value }, option.label)),
      );
    case 'checkbox':
      return h('input', { ...common, type: 'checkbox', required: false, checked: field.value === 'true' });
    default:
      return h('input', { ...common, type: field.type ?? 'text', value: field.value, step: field.type === 'number' ? 'any' : undefined });
  }
}

function valueOf(field: Field, element: HTMLElement): string | boolean {
  if (field.type === 'checkbox') return (element as HTMLInputElement).checked;
  return (element as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;
}

/** The field an issue is about: its whole dotted path, else its first segment. */
function fieldFor(issue: Issue, names: Set<string>): string | undefined {
  const whole = issue.path.join('.');
  if (names.has(whole)) return whole;
  return issue.path.length > 0 && names.has(issue.path[0]) ? issue.path[0] : undefined;
}

/**
 * A labelled form. On submit the values go to `onSubmit`; an ApiError it throws is drawn beside the fields its issues
 * name (aria-invalid, aria-describedby) and in a summary at the top for the rest.
 */
export function form(
  fields: Field[],
  submitLabel: string,
  onSubmit: (values: Record<string, string | boolean>) => Promise<void>,
): HTMLFormElement {
  const prefix = `f${++formCount}`;
  const summary = h('div', { class: 'error', role: 'alert', hidden: true });
  const controls = new Map<string, { field: Field; element: HTMLElement; error: HTMLElement; hintId: string }>();
  const rows = fields.map((field, index) => {
    const id = `${prefix}-${index}`;
    const hintId = field.hint ? `${id}-hint` : '';
    const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
    const element = control(field, id, hintId);
    controls.set(field.name, { field, element, error, hintId });
    const label = h(
      'label',
      { for: id },
      field.label,
      field.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null,
    );
    const hint = field.hint ? h('p', { class: 'hint', id: hintId }, field.hint) : null;
    return h(
      'div',
      { class: field.type === 'checkbox' ? 'field checkbox' : 'field' },
      field.type === 'checkbox' ? [element, label] : [label, element],
      hint,
      error,
    );
  });
  const submit = h('button', { type: 'submit' }, submitLabel);

  const reset = () => {
    summary.hidden = true;
    clear(summary);
    for (const { element, error, hintId } of controls.values()) {
      element.removeAttribute('aria-invalid');
      if (hintId) element.setAttribute('aria-describedby', hintId);
      else element.removeAttribute('aria-describedby');
      error.hidden = true;
      clear(error);
    }
  };

  const mark = (name: string, message: string) => {
    const entry = controls.get(name)!;
    entry.element.setAttribute('aria-invalid', 'true');
    entry.element.setAttribute('aria-describedby', [entry.hintId, entry.error.id].filter(Boolean).join(' '));
    entry.error.hidden = false;
    entry.error.append(entry.error.textContent ? ` ${message}` : message);
  };

  const show = (message: string, issues: Issue[]) => {
    const names = new Set(controls.keys());
    const unmatched: string[] = [];
    for (const issue of issues) {
      const name = fieldFor(issue, names);
      if (name) mark(name, issue.message);
      else unmatched.push(issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message);
    }
    summary.append(h('p', null, message));
    if (unmatched.length > 0)
      summary.append(
        h(
          'ul',
          null,
          unmatched.map((text) => h('li', null, text)),
        ),
      );
    summary.hidden = false;
  };

  const element = h('form', { class: 'form', novalidate: true }, summary, rows, h('div', { class: 'actions' }, submit)) as HTMLFormElement;
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    reset();
    const values: Record<string, string | boolean> = {};
    const invalid: Issue[] = [];
    for (const [name, { field, element: input }] of controls) {
      const value = valueOf(field, input);
      values[name] = value;
      if (field.required && value === '') invalid.push({ path: [name], message: 'required' });
      if (field.type === 'json' && typeof value === 'string' && value.trim() !== '') {
        try {
          JSON.parse(value);
        } catch {
          invalid.push({ path: [name], message: 'not valid JSON' });
        }
      }
    }
    if (invalid.length > 0) {
      show('Please correct the marked fields.', invalid);
      return;
    }
    submit.setAttribute('disabled', '');
    onSubmit(values)
      .catch((error: unknown) => {
        if (error instanceof ApiError) show(error.message, error.issues);
        else show(error instanceof Error ? error.message : String(error), []);
      })
      .finally(() => submit.removeAttribute('disabled'));
  });
  return element;
}
