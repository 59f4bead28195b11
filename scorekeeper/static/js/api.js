// The public API (/api/v1), and nothing else.

import { language } from "./i18n.js";

export const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, body, headers) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "error";
    this.details = error.details || {};
    this.retryAfter = Number(headers && headers.get("Retry-After")) || 0;
    this.language = (headers && headers.get("Content-Language")) || "en";
  }
}

export class NetworkError extends Error {}

export async function request(method, path, { body, token, headers = {}, raw = false } = {}) {
  // The service writes its error messages in the page's language.
  const accept = { Accept: "application/json", "Accept-Language": language() };
  const init = { method, headers: { ...accept, ...headers }, cache: "no-store" };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (error) {
    throw new NetworkError(String(error && error.message));
  }
  if (raw) return response;
  let data = null;
  if (response.status !== 204 && response.status !== 304) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  if (!response.ok && response.status !== 304) {
    if (response.status >= 500 && !data) throw new NetworkError(`HTTP ${response.status}`);
    throw new ApiError(response.status, data, response.headers);
  }
  return { status: response.status, data, headers: response.headers };
}

export const api = {
  rulesets: () => request("GET", "/rulesets").then((r) => r.data.rulesets),
  createGame: (body, key) =>
    request("POST", "/games", { body, headers: { "Idempotency-Key": key } }).then((r) => r.data),
  importGame: (text, key) =>
    request("POST", "/games/import", { body: text, headers: { "Idempotency-Key": key } }).then(
      (r) => r.data,
    ),
  importGameAtTable: (tableId, token, text, key) =>
    request("POST", `/tables/${encodeURIComponent(tableId)}/games/import`, {
      body: text,
      token,
      headers: { "Idempotency-Key": key },
    }).then((r) => r.data),
  game: (id, etag) =>
    request("GET", `/games/${encodeURIComponent(id)}`, {
      headers: etag ? { "If-None-Match": etag } : {},
    }),
  // The game's history; with `after`, only the items numbered above it.
  rounds: (id, after = null) =>
    request(
      "GET",
      `/games/${encodeURIComponent(id)}/rounds${after === null ? "" : `?after=${after}`}`,
    ).then((r) => r.data.rounds),
  round: (id, number) =>
    request("GET", `/games/${encodeURIComponent(id)}/rounds/${number}`).then((r) => r.data),
  exportGame: (id) => request("GET", `/games/${encodeURIComponent(id)}/export`).then((r) => r.data),
  exportUrl: (id) => `${BASE}/games/${encodeURIComponent(id)}/export`,
  previewRound: (id, token, body) =>
    request("POST", `/games/${encodeURIComponent(id)}/rounds?dry_run=true`, { body, token }).then(
      (r) => r.data,
    ),
  postRound: (id, token, body, key) =>
    request("POST", `/games/${encodeURIComponent(id)}/rounds`, {
      body,
      token,
      headers: { "Idempotency-Key": key },
    }),
  previewCorrection: (id, token, number, body) =>
    request("PUT", `/games/${encodeURIComponent(id)}/rounds/${number}?dry_run=true`, {
      body,
      token,
    }).then((r) => r.data),
  correctRound: (id, token, number, body) =>
    request("PUT", `/games/${encodeURIComponent(id)}/rounds/${number}`, { body, token }).then(
      (r) => r.data,
    ),
  // The table ends the game (a ruleset that lets it): the Game as it now stands.
  endGame: (id, token) =>
    request("PATCH", `/games/${encodeURIComponent(id)}`, {
      body: { status: "finished" },
      token,
    }).then((r) => r.data),
  undoRound: (id, token, number) =>
    request("DELETE", `/games/${encodeURIComponent(id)}/rounds/${number}`, { token }),
  // A join or a leave between rounds; dry run: the would-be game.
  seatChange: (id, token, body, key, dryRun = false) =>
    request("POST", `/games/${encodeURIComponent(id)}/seats${dryRun ? "?dry_run=true" : ""}`, {
      body,
      token,
      headers: key ? { "Idempotency-Key": key } : {},
    }).then((r) => r.data),
  // body: none, or what a phone chose ({id, created_at, starter}, each optional).
  rematch: (id, token, key, body = undefined) =>
    request("POST", `/games/${encodeURIComponent(id)}/rematch`, {
      body,
      token,
      headers: { "Idempotency-Key": key },
    }).then((r) => r.data),
  createTable: (body, key) =>
    request("POST", "/tables", { body, headers: { "Idempotency-Key": key } }).then((r) => r.data),
  table: (id, etag) =>
    request("GET", `/tables/${encodeURIComponent(id)}`, {
      headers: etag ? { "If-None-Match": etag } : {},
    }),
  createTableGame: (id, token, body, key) =>
    request("POST", `/tables/${encodeURIComponent(id)}/games`, {
      body,
      token,
      headers: { "Idempotency-Key": key },
    }).then((r) => r.data),
};
