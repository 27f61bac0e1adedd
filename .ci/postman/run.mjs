#!/usr/bin/env node
// Replays a Postman v2.1 collection in order against a live server and runs its pre-request and
// test scripts, as newman would; newman is not used because CI has no npm registry. No
// dependencies: Node 18 or later (global fetch, node:vm).
//
//   node .ci/postman/run.mjs COLLECTION.json [--environment ENV.json] [--env-var name=value]...
//
// The subset of Postman it implements (keep the collection's scripts inside it; anything else
// fails loudly rather than passing silently):
// - Items and folders in file order. "prerequest" and "test" events at collection, folder and
//   request level, outer to inner, each script in a fresh sandbox.
// - {{name}}: pm.variables (local to one request) > environment > collection variables, nested up
//   to 10 levels; dynamic {{$guid}} {{$randomUUID}} {{$timestamp}} {{$isoTimestamp}}
//   {{$randomInt}}, a new value per occurrence. An unresolved {{name}} fails the request.
// - Auth "basic" and "noauth" at collection, folder or request level (the innermost wins).
// - Request: method, url (raw), header (disabled ones skipped), body mode "raw" (language json
//   adds Content-Type: application/json unless a header sets it).
// - pm.test(name, fn) (fn may return a promise), pm.test.skip(name, fn).
// - pm.expect(value): chains to be been is that which and has have with at of same deep not;
//   assertions equal/equals/eq, eql, oneOf, include/includes/contain/contains, a/an, match,
//   above/gt/greaterThan, below/lt/lessThan, least/gte, most/lte, lengthOf, property(name[, value])
//   (which moves the subject to the property); properties exist, ok, true, false, null, undefined,
//   empty.
// - pm.response: code, status, responseTime, text(), json(), headers.get(name),
//   to.have.status(code), to.have.header(name).
// - pm.variables, pm.environment, pm.collectionVariables: get, set, unset, has, toObject,
//   replaceIn(text). pm.info: requestName, eventName, iteration. pm.request: method, url,
//   headers.get(name). console.log/info/warn/error.
//
// Exit status 0 only when every request was sent and answered, every script ran without error,
// every request ran at least one test, and every test passed.

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const usage = "usage: run.mjs COLLECTION.json [--environment ENV.json] [--env-var name=value]... [--timeout ms]";

function parseArguments(argv) {
  const options = { collection: undefined, environment: undefined, overrides: [], timeout: 15000 };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = () => {
      if (index + 1 >= argv.length) fail(`${argument} needs a value\n${usage}`);
      return argv[++index];
    };
    if (argument === "--environment" || argument === "-e") options.environment = value();
    else if (argument === "--env-var") options.overrides.push(value());
    else if (argument === "--timeout") options.timeout = Number(value());
    else if (argument.startsWith("-")) fail(`unknown option ${argument}\n${usage}`);
    else if (options.collection === undefined) options.collection = argument;
    else fail(usage);
  }
  if (options.collection === undefined) fail(usage);
  return options;
}

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(2);
}

// ---- Variables ---------------------------------------------------------------------------------

class VariableScope {
  constructor(entries = []) {
    this.values = new Map();
    for (const entry of entries) {
      if (entry.disabled || entry.enabled === false) continue;
      this.values.set(entry.key, entry.value);
    }
  }
  get(name) { return this.values.get(name); }
  set(name, value) { this.values.set(name, value); }
  unset(name) { this.values.delete(name); }
  has(name) { return this.values.has(name); }
  clear() { this.values.clear(); }
  toObject() { return Object.fromEntries(this.values); }
}

const dynamicVariables = {
  $guid: () => randomUUID(),
  $randomUUID: () => randomUUID(),
  $timestamp: () => String(Math.floor(Date.now() / 1000)),
  $isoTimestamp: () => new Date().toISOString(),
  $randomInt: () => String(Math.floor(Math.random() * 1001)),
};

/** Local, environment and collection scopes, looked up in Postman's order of precedence. */
class Variables {
  constructor(environment, collection) {
    this.environment = environment;
    this.collection = collection;
    this.local = new VariableScope();
  }
  lookup(name) {
    for (const scope of [this.local, this.environment, this.collection]) {
      if (scope.has(name)) return scope.get(name);
    }
    return undefined;
  }
  /** Replaces {{name}} and {{$dynamic}}; the names left unresolved go into `unresolved`. */
  replaceIn(text, unresolved = new Set()) {
    if (typeof text !== "string") return text;
    let current = text;
    for (let depth = 0; depth < 10; depth++) {
      const next = current.replace(/\{\{([^{}]+)\}\}/g, (whole, name) => {
        if (name in dynamicVariables) return dynamicVariables[name]();
        const value = this.lookup(name);
        return value === undefined ? whole : String(value);
      });
      if (next === current) break;
      current = next;
    }
    for (const match of current.matchAll(/\{\{([^{}]+)\}\}/g)) unresolved.add(match[1]);
    return current;
  }
}

// ---- pm.expect ---------------------------------------------------------------------------------

class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}

function show(value) {
  if (typeof value === "string") return JSON.stringify(value.length > 200 ? value.slice(0, 200) + "…" : value);
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 200 ? text.slice(0, 200) + "…" : text;
  } catch {
    return String(value);
  }
}

function typeName(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof RegExp || Object.prototype.toString.call(value) === "[object RegExp]") return "regexp";
  return typeof value;
}

/** Structural equality that works across vm realms (no prototype or instanceof checks). */
function deepEqual(left, right) {
  if (left === right) return true;
  if (typeof left === "number" && typeof right === "number") return Number.isNaN(left) && Number.isNaN(right);
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && deepEqual(left[key], right[key]));
}

const chainWords = ["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of", "same"];

class Assertion {
  constructor(subject, message) {
    this.subject = subject;
    this.message = message;
    this.negated = false;
    this.deepFlag = false;
  }
  check(holds, description) {
    if (holds === this.negated) {
      const prefix = this.message ? `${this.message}: ` : "";
      throw new AssertionError(`${prefix}expected ${show(this.subject)} ${this.negated ? "not " : ""}${description}`);
    }
    return this;
  }
  get not() { this.negated = !this.negated; return this; }
  get deep() { this.deepFlag = true; return this; }
  equal(expected) {
    const holds = this.deepFlag ? deepEqual(this.subject, expected) : this.subject === expected;
    return this.check(holds, `to ${this.deepFlag ? "deeply " : ""}equal ${show(expected)}`);
  }
  equals(expected) { return this.equal(expected); }
  eq(expected) { return this.equal(expected); }
  eql(expected) { return this.check(deepEqual(this.subject, expected), `to deeply equal ${show(expected)}`); }
  oneOf(list) {
    const holds = list.some((item) => (this.deepFlag ? deepEqual(item, this.subject) : item === this.subject));
    return this.check(holds, `to be one of ${show(list)}`);
  }
  include(expected) {
    const subject = this.subject;
    let holds;
    if (typeof subject === "string") holds = typeof expected === "string" && subject.includes(expected);
    else if (Array.isArray(subject)) holds = subject.some((item) => (this.deepFlag ? deepEqual(item, expected) : item === expected));
    else if (subject !== null && typeof subject === "object" && expected !== null && typeof expected === "object")
      holds = Object.keys(expected).every((key) => deepEqual(subject[key], expected[key]));
    else holds = false;
    return this.check(holds, `to include ${show(expected)}`);
  }
  includes(expected) { return this.include(expected); }
  contain(expected) { return this.include(expected); }
  contains(expected) { return this.include(expected); }
  a(type) { return this.check(typeName(this.subject) === String(type).toLowerCase(), `to be a ${type}`); }
  an(type) { return this.a(type); }
  match(pattern) { return this.check(typeof this.subject === "string" && pattern.test(this.subject), `to match ${pattern}`); }
  above(limit) { return this.check(typeof this.subject === "number" && this.subject > limit, `to be above ${limit}`); }
  gt(limit) { return this.above(limit); }
  greaterThan(limit) { return this.above(limit); }
  below(limit) { return this.check(typeof this.subject === "number" && this.subject < limit, `to be below ${limit}`); }
  lt(limit) { return this.below(limit); }
  lessThan(limit) { return this.below(limit); }
  least(limit) { return this.check(typeof this.subject === "number" && this.subject >= limit, `to be at least ${limit}`); }
  gte(limit) { return this.least(limit); }
  most(limit) { return this.check(typeof this.subject === "number" && this.subject <= limit, `to be at most ${limit}`); }
  lte(limit) { return this.most(limit); }
  lengthOf(length) {
    const actual = this.subject == null ? undefined : this.subject.length;
    return this.check(actual === length, `to have length ${length} (it has ${actual})`);
  }
  property(name, ...value) {
    const subject = this.subject;
    const present = subject !== null && subject !== undefined && typeof subject === "object" && name in subject;
    if (value.length === 0) {
      this.check(present, `to have property ${show(name)}`);
    } else {
      const holds = present && (this.deepFlag ? deepEqual(subject[name], value[0]) : subject[name] === value[0]);
      this.check(holds, `to have property ${show(name)} of ${show(value[0])} (it is ${show(present ? subject[name] : undefined)})`);
    }
    if (this.negated) return this;
    const next = new Assertion(subject[name], this.message);
    next.deepFlag = this.deepFlag;
    return next;
  }
  get exist() { return this.check(this.subject !== null && this.subject !== undefined, "to exist"); }
  get ok() { return this.check(Boolean(this.subject), "to be truthy"); }
  get true() { return this.check(this.subject === true, "to be true"); }
  get false() { return this.check(this.subject === false, "to be false"); }
  get null() { return this.check(this.subject === null, "to be null"); }
  get undefined() { return this.check(this.subject === undefined, "to be undefined"); }
  get empty() {
    const subject = this.subject;
    const size = typeof subject === "string" || Array.isArray(subject) ? subject.length
      : subject && typeof subject === "object" ? Object.keys(subject).length : undefined;
    return this.check(size === 0, "to be empty");
  }
}
for (const word of chainWords) {
  Object.defineProperty(Assertion.prototype, word, { get() { return this; } });
}

// ---- Requests and scripts ----------------------------------------------------------------------

function scriptsOf(node, listen) {
  return (node.event ?? [])
    .filter((event) => event.listen === listen && event.script && !event.disabled)
    .map((event) => (Array.isArray(event.script.exec) ? event.script.exec.join("\n") : String(event.script.exec ?? "")))
    .filter((code) => code.trim() !== "");
}

function entries(list) {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, entry.value]));
}

/** The innermost auth of the request, its folders, then the collection. */
function effectiveAuth(request, ancestors) {
  if (request.auth) return request.auth;
  for (let index = ancestors.length - 1; index >= 0; index--) {
    if (ancestors[index].auth) return ancestors[index].auth;
  }
  return undefined;
}

class Run {
  constructor(collection, environment, timeout) {
    this.collection = collection;
    this.variables = new Variables(environment, new VariableScope(collection.variable));
    this.timeout = timeout;
    this.requests = 0;
    this.failedRequests = 0;
    this.passed = 0;
    this.failed = 0;
    this.skipped = 0;
  }

  async walk(items, ancestors, depth) {
    for (const item of items) {
      if (Array.isArray(item.item)) {
        console.log(`${"  ".repeat(depth)}${item.name}`);
        await this.walk(item.item, [...ancestors, item], depth + 1);
      } else {
        await this.runItem(item, ancestors, depth);
      }
    }
  }

  async runItem(item, ancestors, depth) {
    this.requests++;
    this.variables.local = new VariableScope();
    const chain = [...ancestors, item];
    const outcome = { tests: [], problems: [], logs: [] };
    const request = typeof item.request === "string" ? { method: "GET", url: item.request } : item.request ?? {};
    const context = { item, request, response: undefined, outcome };

    for (const node of chain) {
      for (const code of scriptsOf(node, "prerequest")) await this.runScript(code, "prerequest", context);
    }

    const unresolved = new Set();
    const resolve = (text) => this.variables.replaceIn(text, unresolved);
    const method = (request.method ?? "GET").toUpperCase();
    const rawUrl = typeof request.url === "string" ? request.url : request.url?.raw ?? "";
    const url = resolve(rawUrl);
    const headers = new Headers();
    for (const header of request.header ?? []) {
      if (!header.disabled) headers.set(resolve(header.key), resolve(header.value ?? ""));
    }
    const auth = effectiveAuth(request, chain.slice(0, -1));
    if (auth?.type === "basic" && !headers.has("authorization")) {
      const basic = entries(auth.basic);
      const credentials = `${resolve(basic.username ?? "")}:${resolve(basic.password ?? "")}`;
      headers.set("Authorization", `Basic ${Buffer.from(credentials).toString("base64")}`);
    } else if (auth && auth.type !== "basic" && auth.type !== "noauth") {
      outcome.problems.push(`auth type ${auth.type} is not supported by this runner`);
    }
    let body;
    if (request.body?.mode === "raw" && !["GET", "HEAD"].includes(method)) {
      body = resolve(request.body.raw ?? "");
      if (request.body.options?.raw?.language === "json" && !headers.has("content-type"))
        headers.set("Content-Type", "application/json");
    } else if (request.body?.mode && request.body.mode !== "raw") {
      outcome.problems.push(`body mode ${request.body.mode} is not supported by this runner`);
    }
    context.sent = { method, url, headers };
    if (unresolved.size > 0) outcome.problems.push(`unresolved variables: ${[...unresolved].join(", ")}`);

    if (outcome.problems.length === 0) {
      const started = Date.now();
      try {
        const answer = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeout) });
        const text = await answer.text();
        context.response = { code: answer.status, status: answer.statusText, headers: answer.headers, text, time: Date.now() - started };
      } catch (error) {
        outcome.problems.push(`request failed: ${error.cause?.message ?? error.message}`);
      }
    }

    if (context.response) {
      for (const node of chain) {
        for (const code of scriptsOf(node, "test")) await this.runScript(code, "test", context);
      }
      if (outcome.tests.length === 0) outcome.problems.push("no tests ran for this request");
    }
    this.report(item, context, depth);
  }

  async runScript(code, eventName, context) {
    const pending = [];
    const tests = context.outcome.tests;
    const test = (name, body) => {
      const record = { name, error: undefined, skipped: false };
      tests.push(record);
      try {
        const result = body();
        if (result && typeof result.then === "function") pending.push(result.then(() => {}, (error) => { record.error = error; }));
      } catch (error) {
        record.error = error;
      }
    };
    test.skip = (name) => tests.push({ name, error: undefined, skipped: true });
    const variables = this.variables;
    const scopeApi = (scope) => ({
      get: (name) => scope.get(name),
      set: (name, value) => scope.set(name, value),
      unset: (name) => scope.unset(name),
      has: (name) => scope.has(name),
      clear: () => scope.clear(),
      toObject: () => scope.toObject(),
      replaceIn: (text) => variables.replaceIn(text),
    });
    const response = context.response;
    const responseApi = response && {
      code: response.code,
      status: response.status,
      responseTime: response.time,
      headers: { get: (name) => response.headers.get(name) ?? undefined, has: (name) => response.headers.has(name) },
      text: () => response.text,
      json: () => JSON.parse(response.text),
      to: {
        have: {
          status: (code) => new Assertion(response.code, "response status").equal(code),
          header: (name) => new Assertion(response.headers.has(name), `response header ${name}`).true,
        },
      },
    };
    const sent = context.sent;
    const pm = {
      test,
      expect: (value, message) => new Assertion(value, message),
      variables: { ...scopeApi(variables.local), get: (name) => variables.lookup(name), has: (name) => variables.lookup(name) !== undefined },
      environment: scopeApi(variables.environment),
      collectionVariables: scopeApi(variables.collection),
      info: { requestName: context.item.name, eventName, iteration: 0 },
      request: {
        method: sent?.method ?? (context.request.method ?? "GET").toUpperCase(),
        url: sent?.url ?? (typeof context.request.url === "string" ? context.request.url : context.request.url?.raw),
        headers: { get: (name) => sent?.headers.get(name) ?? undefined },
      },
      response: responseApi,
    };
    const log = (...parts) => context.outcome.logs.push(parts.map((part) => (typeof part === "string" ? part : show(part))).join(" "));
    const sandbox = vm.createContext({ pm, console: { log, info: log, warn: log, error: log } });
    try {
      vm.runInContext(code, sandbox, { filename: `${context.item.name} [${eventName}]`, timeout: 5000 });
      await Promise.all(pending);
    } catch (error) {
      context.outcome.problems.push(`${eventName} script error: ${error.message}`);
    }
  }

  report(item, context, depth) {
    const { outcome, response, sent } = context;
    const failedTests = outcome.tests.filter((test) => test.error);
    const skipped = outcome.tests.filter((test) => test.skipped).length;
    const passed = outcome.tests.length - failedTests.length - skipped;
    this.passed += passed;
    this.failed += failedTests.length;
    this.skipped += skipped;
    const ok = failedTests.length === 0 && outcome.problems.length === 0;
    if (outcome.problems.length > 0) this.failedRequests++;
    const indent = "  ".repeat(depth);
    const status = response ? `${response.code} ${response.time}ms` : "no response";
    const counts = `${passed}/${outcome.tests.length} tests` + (skipped ? `, ${skipped} skipped` : "");
    console.log(`${indent}${ok ? "ok  " : "FAIL"} ${sent?.method ?? ""} ${item.name} (${status}, ${counts})`);
    for (const line of outcome.logs) console.log(`${indent}       log: ${line}`);
    for (const test of failedTests) console.log(`${indent}       test "${test.name}": ${test.error?.message ?? test.error}`);
    for (const problem of outcome.problems) console.log(`${indent}       ${problem}`);
    if (!ok && response) console.log(`${indent}       ${sent.url} answered: ${show(response.text)}`);
  }
}

const options = parseArguments(process.argv.slice(2));
const collection = JSON.parse(readFileSync(options.collection, "utf8"));
if (!String(collection.info?.schema ?? "").includes("/v2.1.")) fail(`${options.collection} is not a Postman v2.1 collection`);
const environment = new VariableScope(options.environment ? JSON.parse(readFileSync(options.environment, "utf8")).values : []);
for (const override of options.overrides) {
  const split = override.indexOf("=");
  if (split < 1) fail(`--env-var takes name=value, got ${override}`);
  environment.set(override.slice(0, split), override.slice(split + 1));
}

const run = new Run(collection, environment, options.timeout);
console.log(collection.info.name);
await run.walk(collection.item ?? [], [collection], 1);
const total = run.passed + run.failed;
console.log(
  `\n${run.requests} requests (${run.failedRequests} failed), ${total} tests: ${run.passed} passed, ${run.failed} failed` +
    (run.skipped ? `, ${run.skipped} skipped` : ""),
);
if (run.failed > 0 || run.failedRequests > 0 || total === 0) {
  if (total === 0) console.log("no tests ran");
  process.exit(1);
}
