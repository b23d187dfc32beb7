"use strict";
// a page token from /api/token's pageUrl arrives in the fragment (never sent to a server): keep it
// for this tab and take it out of the address bar
const hashToken = new URLSearchParams(location.hash.slice(1)).get("access_token");
if (hashToken) {
  sessionStorage.setItem("access_token", hashToken);
  history.replaceState(null, "", location.pathname + location.search);
}
const pageToken = sessionStorage.getItem("access_token");
function text(tag, value, cls) {
  const el = document.createElement(tag);
  el.textContent = value;
  if (cls) el.className = cls;
  return el;
}
function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60), r = s % 60;
  return m > 0 ? m + " min " + String(r).padStart(2, "0") + " s" : r + " s";
}
function size(bytes) {
  if (bytes < 1024) return bytes + " B";
  if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + " KB";
  return (bytes / 1024 / 1024).toFixed(1) + " MB";
}
function row(f) {
  const tr = document.createElement("tr");
  tr.dataset.fileId = f.id;
  const file = document.createElement("td");
  file.appendChild(text("div", f.name, "name"));
  if (f.name !== f.id) file.appendChild(text("div", "id: " + f.id, "id"));
  tr.appendChild(file);
  tr.appendChild(text("td", size(f.size), "num"));
  const state = document.createElement("td");
  state.appendChild(text("span", f.lock ? "locked" : "unlocked", "badge " + (f.lock ? "locked" : "free")));
  tr.appendChild(state);
  const lockId = f.lock ? (f.lock.lockId ?? "hidden") : "—";
  tr.appendChild(text("td", lockId, f.lock && f.lock.lockId != null ? "lockid" : "muted"));
  tr.appendChild(text("td", f.lock ? duration(f.lock.ageSeconds) : "—", "num" + (f.lock ? "" : " muted")));
  tr.appendChild(text("td", f.lock ? duration(f.lock.expiresInSeconds) : "—", "num" + (f.lock ? "" : " muted")));
  const open = document.createElement("td");
  if (f.openUrl) {
    const a = text("a", "open in editor", "open");
    a.href = f.openUrl + (pageToken ? "?access_token=" + encodeURIComponent(pageToken) : "");
    a.target = "_blank";
    a.rel = "noopener";
    open.appendChild(a);
  }
  tr.appendChild(open);
  return tr;
}
async function refresh() {
  const status = document.getElementById("status");
  try {
    const r = await fetch("api/files", {
      cache: "no-store",
      headers: pageToken ? { Authorization: "Bearer " + pageToken } : {}
    });
    if (r.status === 401) throw new Error("not signed in: open the page through the demo door, or with the pageUrl of /api/token");
    if (!r.ok) throw new Error("HTTP " + r.status);
    const data = await r.json();
    const body = document.getElementById("files");
    body.replaceChildren(...data.files.map(row));
    if (data.files.length === 0) body.appendChild(text("tr", "")).appendChild(text("td", "no files" + (data.folder ? " in " + data.folder : ""), "muted"));
    document.getElementById("backend").textContent =
      "user: " + data.user + " · lock backend: " + data.lockBackend + (data.folder ? " · folder: " + data.folder : "") + (data.wopiClient ? " · client: " + data.wopiClient : "");
    status.className = "meta";
    status.textContent = data.locked + " of " + data.files.length + " locked · updated " + new Date().toLocaleTimeString();
  } catch (e) {
    status.className = "meta error";
    status.textContent = "cannot reach the host: " + e.message;
  }
}
refresh();
setInterval(refresh, 2000);
