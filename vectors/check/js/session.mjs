export function estimates() { throw new Error('todo'); }
export function runScript() { throw new Error('todo'); }
