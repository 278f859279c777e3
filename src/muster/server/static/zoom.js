// Pan and zoom an SVG by its viewBox: mouse wheel, drag, two-finger pinch, and + / − / fit buttons.
const MIN_W = 260;

export function enableZoom(frame, svg, full, start) {
  let vb = { ...(start || full) };
  const aspect = (start || full).h / (start || full).w;
  const pointers = new Map();
  let pinch = null, drag = null;
  const apply = () => { svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`); svg.dispatchEvent(new Event("viewchange")); };
  const clamp = () => {
    vb.w = Math.max(MIN_W, Math.min(full.w * 1.05, vb.w));
    vb.h = vb.w * aspect;
    vb.x = Math.max(full.x - vb.w * 0.25, Math.min(full.x + full.w - vb.w * 0.75, vb.x));
    vb.y = Math.max(full.y - vb.h * 0.25, Math.min(full.y + full.h - vb.h * 0.75, vb.y));
  };
  const toView = (cx, cy) => {
    const r = svg.getBoundingClientRect();
    const scale = Math.max(vb.w / r.width, vb.h / r.height);
    const ox = (r.width * scale - vb.w) / 2, oy = (r.height * scale - vb.h) / 2;
    return { x: vb.x - ox + (cx - r.left) * scale, y: vb.y - oy + (cy - r.top) * scale, scale };
  };
  const zoomAt = (factor, cx, cy) => {
    const p = toView(cx, cy);
    const w = vb.w * factor, h = vb.h * factor;
    vb = { x: p.x - (p.x - vb.x) * factor, y: p.y - (p.y - vb.y) * factor, w, h };
    clamp(); apply();
  };
  svg.addEventListener("wheel", (e) => { e.preventDefault(); zoomAt(e.deltaY > 0 ? 1.12 : 1 / 1.12, e.clientX, e.clientY); }, { passive: false });
  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    delete svg.dataset.dragged;
    if (pointers.size === 1) drag = { x: e.clientX, y: e.clientY, vb: { ...vb }, moved: false };
    if (pointers.size === 2) { const [a, b] = [...pointers.values()]; pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), vb: { ...vb } }; drag = null; }
  });
  svg.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const factor = pinch.d / d;
      vb = { ...pinch.vb };
      zoomAt(factor, (a.x + b.x) / 2, (a.y + b.y) / 2);
      svg.dataset.dragged = "1";
    } else if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return; // a tap, not a drag
      drag.moved = true;
      svg.dataset.dragged = "1";
      const { scale } = toView(e.clientX, e.clientY);
      vb = { ...vb, x: drag.vb.x - dx * scale, y: drag.vb.y - dy * scale };
      clamp(); apply();
    }
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) { drag = null; setTimeout(() => delete svg.dataset.dragged, 0); }
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  apply();
  return {
    zoomIn() { const r = svg.getBoundingClientRect(); zoomAt(1 / 1.25, r.left + r.width / 2, r.top + r.height / 2); },
    zoomOut() { const r = svg.getBoundingClientRect(); zoomAt(1.25, r.left + r.width / 2, r.top + r.height / 2); },
    fit() { vb = { ...(start || full) }; apply(); },
    /** Pan (and zoom out only as much as needed) so that ``box`` ({x, y, w, h}) is in view; nothing if it is. */
    reveal(box) {
      const pad = 20;
      const x0 = box.x - pad, y0 = box.y - pad, x1 = box.x + box.w + pad, y1 = box.y + box.h + pad;
      if (x0 >= vb.x && y0 >= vb.y && x1 <= vb.x + vb.w && y1 <= vb.y + vb.h) return;
      const w = Math.max(vb.w, x1 - x0, (y1 - y0) / aspect), h = w * aspect;
      // move the view as little as possible: from its present centre, just far enough to hold the box
      const x = Math.min(Math.max(vb.x + (vb.w - w) / 2, x1 - w), x0);
      const y = Math.min(Math.max(vb.y + (vb.h - h) / 2, y1 - h), y0);
      vb = { x, y, w, h };
      apply();
    },
    all() { vb = { ...full }; apply(); },
    /** True if ``box`` lies wholly in the part of the map shown now. */
    shows(box) { return box.x >= vb.x && box.y >= vb.y && box.x + box.w <= vb.x + vb.w && box.y + box.h <= vb.y + vb.h; },
  };
}
