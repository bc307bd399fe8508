// Talking to the companion: the token from a link, JSON requests, the SSE URL.
// A link's ?token= is kept for this tab (sessionStorage) and removed from the address bar,
// so a screenshot of the page does not leak it; the server also set it as a cookie. Requests
// carry it in the Authorization header; EventSource, <img> and links use the cookie. A token
// never goes into an API URL (access logs, history and Referer headers would keep it).

const KEY = "companion-token";
const url = new URL(location.href);
if (url.searchParams.has("token")) {
  sessionStorage.setItem(KEY, url.searchParams.get("token"));
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
}
export const token = sessionStorage.getItem(KEY);
/** On a loopback-bound server, `?seat=N` picks a seat's view (no tokens there). */
export const seatParam = url.searchParams.get("seat");

export function withAuth(path) {
  const u = new URL(path, location.origin);
  if (seatParam !== null) u.searchParams.set("seat", seatParam);
  return u.pathname + u.search;
}

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(withAuth(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!res.ok) throw new ApiError(res.status, (data && data.detail) || res.statusText);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body ?? {});
