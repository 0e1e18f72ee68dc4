// The public REST API, with the player's bearer token. Nothing else talks to the server.

const KEY = "arcana.session";

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const session = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || null;
    } catch {
      return null;
    }
  },
  set(value) {
    localStorage.setItem(KEY, JSON.stringify(value));
  },
  clear() {
    localStorage.removeItem(KEY);
  },
};

export function me() {
  return session.get()?.player_id;
}

let onUnauthorized = () => {};
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function api(method, path, body, { signal, idempotent = false } = {}) {
  const headers = { Accept: "application/json" };
  const token = session.get()?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotent) headers["Idempotency-Key"] = newKey();
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: "no-store",
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (response.ok) return data;
  const error = data?.error || {};
  if (response.status === 401 && token) onUnauthorized();
  throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText, error.details);
}

export const get = (path, opts) => api("GET", path, undefined, opts);
export const post = (path, body, opts) => api("POST", path, body, { idempotent: true, ...opts });
export const put = (path, body) => api("PUT", path, body);
export const del = (path) => api("DELETE", path);
