"use strict";
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
    const a = text("a", "open", "open");
    a.href = f.openUrl;
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
    const r = await fetch("api/files", { cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status);
    const data = await r.json();
    const body = document.getElementById("files");
    body.replaceChildren(...data.files.map(row));
    if (data.files.length === 0) body.appendChild(text("tr", "")).appendChild(text("td", "no files" + (data.folder ? " in " + data.folder : ""), "muted"));
    document.getElementById("backend").textContent =
      "lock backend: " + data.lockBackend + (data.folder ? " · folder: " + data.folder : "") + (data.wopiClient ? " · client: " + data.wopiClient : "");
    status.className = "meta";
    status.textContent = data.locked + " of " + data.files.length + " locked · updated " + new Date().toLocaleTimeString();
  } catch (e) {
    status.className = "meta error";
    status.textContent = "cannot reach the host: " + e.message;
  }
}
refresh();
setInterval(refresh, 2000);
