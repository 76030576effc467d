/** A child of an element: strings and numbers become text nodes (never markup), falsy values are skipped, arrays flatten. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attributes of an element: `on*` keys are listeners, `true` sets a boolean attribute, `false`/undefined omit it. */
export type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const each of child) append(parent, each);
    return;
  }
  parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
}

/** Builds an element; every string lands as text or an attribute value, so user data can never become markup. */
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}
