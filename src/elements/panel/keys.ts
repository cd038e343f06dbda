/** Input types whose own undo (of typed text) a Ctrl/Cmd+Z must reach instead of the panel's. */
const TEXT_TYPES = new Set(['text', 'search', 'url', 'number', 'email', 'tel', 'password']);

function editsText(target: EventTarget | undefined): boolean {
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_TYPES.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

/**
 * The history step a key press asks for: Ctrl/Cmd+Z undo, Shift+Ctrl/Cmd+Z or Ctrl+Y redo; `undefined` for any
 * other key, and while focus is in a text field (its own text undo comes first).
 */
export function isUndoKey(event: KeyboardEvent): 'undo' | 'redo' | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || editsText(event.composedPath()[0])) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
  return undefined;
}
