// The worker protocol (web/protocol.json), declared once and checked on every message: a message
// of an undeclared type, or with an undeclared field, throws where it is made, so a page and a
// worker that drift apart fail loudly (and the page tests, which fail on any page error, see it).
import PROTOCOL from "../protocol.json";

export {PROTOCOL};

function check(table, type, fields, where) {
  const allowed = table[type];
  if (!allowed) throw new Error("deid protocol: undeclared " + where + " message " + JSON.stringify(type));
  for (const k of Object.keys(fields || {})) {
    if (!allowed.includes(k)) throw new Error("deid protocol: field " + k + " is not declared for " + where + " " + type);
  }
}

// A message from the page to the worker: {type, ...fields}.
export function toWorker(type, fields) {
  check(PROTOCOL.page_to_worker, type, fields, "page_to_worker");
  return Object.assign({type}, fields);
}

// A message from the worker to the page: {type, ...fields}.
export function toPage(type, fields) {
  check(PROTOCOL.worker_to_page, type, fields, "worker_to_page");
  return Object.assign({type}, fields);
}

// A request for the engine (deid_page.handle) or the worker's own ops, with the worker's options.
export function request(op, fields) {
  const declared = PROTOCOL.python_ops[op] || PROTOCOL.worker_ops[op];
  if (!declared) throw new Error("deid protocol: undeclared op " + JSON.stringify(op));
  const options = PROTOCOL.worker_options[op] || [];
  for (const k of Object.keys(fields || {})) {
    if (!declared.includes(k) && !options.includes(k)) {
      throw new Error("deid protocol: field " + k + " is not declared for op " + op);
    }
  }
  return Object.assign({op}, fields);
}

// Dispatch one received message to handlers[type]; the handler table must name every declared
// message of `direction` and no other (checked once, when the table is made).
export function dispatcher(direction, handlers) {
  const declared = Object.keys(PROTOCOL[direction]).sort();
  const given = Object.keys(handlers).sort();
  if (declared.join() !== given.join()) {
    throw new Error("deid protocol: handlers for " + direction + " are " + given.join() + ", declared " + declared.join());
  }
  return (msg) => {
    check(PROTOCOL[direction], msg && msg.type, Object.fromEntries(Object.entries(msg).filter(([k]) => k !== "type")), direction);
    handlers[msg.type](msg);
  };
}
