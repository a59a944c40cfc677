"use strict";
// The order page (issue 36): a form built from the stage's schema tree (render/order_shape.py),
// the game's choices and the order form's values; it writes the order mail as YAML.
(function () {
var D = JSON.parse(document.getElementById("data").textContent), W = D.w, C = D.c || {}, LB = D.lb || {};
var root = {orders: D.v || {}}, ctl = {}, uid = 0;
var $ = function (id) { return document.getElementById(id); };
function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return k in o ? o[k] : m; }); }
function el(tag, attrs, text) {
  var e = document.createElement(tag), k;
  for (k in attrs || {}) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); }
  if (text !== undefined) e.textContent = text;
  return e;
}
function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function copy(v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)); }
function human(s) { s = String(s).replace(/_/g, " "); return s.charAt(0).toUpperCase() + s.slice(1); }
function label(cp, f) { return LB["field." + cp] || human(f.ti || f.k); }
function get(p) { var v = root; for (var i = 0; i < p.length && v !== undefined && v !== null; i++) v = v[p[i]]; return v; }
function set(p, v) { var o = get(p.slice(0, -1)); o[p[p.length - 1]] = v; }
function cpOf(cp, k) { return cp ? cp + "." + k : String(k); }
function fits(n, v) {
  switch (n.t) {
    case "const": return v === n.v;
    case "enum": return n.v.indexOf(v) >= 0;
    case "obj": return isObj(v) && (n.tk === undefined || v[n.tk] === n.tag);
    case "map": return isObj(v);
    case "arr": return Array.isArray(v);
    case "str": return typeof v === "string";
    case "int": return typeof v === "number" && Math.floor(v) === v;
    case "num": return typeof v === "number";
    case "bool": return typeof v === "boolean";
    case "alt": return pick(n, v) >= 0;
  }
  return true;
}
function pick(n, v) { for (var i = 0; i < n.o.length; i++) if (fits(n.o[i], v)) return i; return -1; }
function node(n, v) { if (n.t !== "alt") return n; var i = pick(n, v); return n.o[i < 0 ? 0 : i]; }
function always(f) { return f.req || f.n.t === "arr" || (f.d !== undefined && f.d !== null && typeof f.d !== "object"); }
function blank(n) {
  switch (n.t) {
    case "const": return n.v;
    case "obj": var o = {}; n.f.forEach(function (f) {
      if (f.req && f.n.t !== "arr") o[f.k] = blank(f.n);
      else if (always(f) && f.n.t !== "arr") o[f.k] = copy(f.d);
      if (f.n.t === "arr") o[f.k] = [];
    }); return o;
    case "arr": return [];
    case "map": return {};
    case "str": case "any": return "";
    case "bool": return false;
    case "alt": return blank(n.o[0]);
  }
  return null;
}
function optLabel(cp, n, v) {
  var list = C[cp] || [];
  for (var i = 0; i < list.length; i++) if (list[i][0] === v) return list[i][1];
  return LB["kind." + cp + "." + v] || String(v);
}
function kindLabel(cp, n) {
  if (n.t === "const") return optLabel(cp, n, n.v);
  var name = n.tag !== undefined ? n.tag : (n.ti || n.t);
  return LB["kind." + cp + "." + name] || (n.tag === undefined && W["k_" + n.t]) || human(name);
}

// -- the form ---------------------------------------------------------------------------
function control(p, input, host) {
  var msg = el("p", {"class": "err", id: "e" + (++uid)});
  input.setAttribute("aria-describedby", msg.id);
  ctl[p.join(".")] = {input: input, msg: msg};
  host.appendChild(msg);
}
// a choice's third part, when ({field: [values]}), holds while those fields of its record (the list
// item its path is in, else its phase: the first part) hold one of them; only such choices are offered
var DEP = {};
Object.keys(C).forEach(function (cp) { C[cp].forEach(function (c) { Object.keys(c[2] || {}).forEach(function (k) { DEP[k] = 1; }); }); });
function recOf(p, cp) {
  var s = cp.replace(/\.\*$/, "").split("."), i = s.lastIndexOf("*");
  return p.slice(0, i >= 0 ? i + 2 : s.length > 1 ? 2 : 1);
}
function offered(p, cp) {
  if (!C[cp]) return undefined;
  var r = recOf(p, cp);
  return C[cp].filter(function (c) {
    return !c[2] || Object.keys(c[2]).every(function (k) { return c[2][k].indexOf(get(r.concat(k.split(".")))) >= 0; });
  });
}
function given(v) { return v !== undefined && v !== null && v !== "" && (!Array.isArray(v) || v.length > 0) && (!isObj(v) || Object.keys(v).length > 0); }
function field(p, cp, lab, n, host) {
  var id = "i" + (++uid), v = get(p), box = el("div", {"class": "f"}), input;
  var list = n.t === "enum" ? n.v.map(function (x) { return [x, optLabel(cp, n, x)]; }) : offered(p, cp);
  if (n.t === "const") {
    set(p, n.v);
    box.appendChild(el("span", {"class": "lab"}, lab + ": " + optLabel(cp, n, n.v)));
    return host.appendChild(box);
  } else if (n.t === "bool" && !list) {
    input = el("input", {type: "checkbox", id: id, "data-k": p.join(".")});
    input.checked = v === true;
    input.addEventListener("change", function () { set(p, input.checked); update(); });
    box.className = "f opt"; box.appendChild(input); box.appendChild(el("label", {"for": id}, " " + lab));
  } else if (list) {
    input = el("select", {id: id, "data-k": p.join(".")});
    var vals = [null];
    input.appendChild(el("option", {value: "0"}, W.choose));
    list.forEach(function (c) { vals.push(c[0]); input.appendChild(el("option", {value: String(vals.length - 1)}, c[1])); });
    if (v !== null && v !== undefined && v !== "" && vals.indexOf(v) < 0) {
      vals.push(v); input.appendChild(el("option", {value: String(vals.length - 1)}, String(v)));
    }
    input.value = String(Math.max(0, vals.indexOf(v === undefined ? null : v)));
    input.addEventListener("change", function () {   // what depends on this field is offered anew
      set(p, vals[+input.value]); if (DEP[p[p.length - 1]]) redraw(p.join(".")); else update();
    });
    box.appendChild(el("label", {"for": id}, lab)); box.appendChild(input);
  } else {
    var num = n.t === "int" || n.t === "num";
    input = el("input", {type: num ? "number" : "text", id: id, "data-k": p.join("."), min: n.lo, max: n.hi,
                         step: n.t === "int" ? "1" : null, maxlength: num ? null : n.hi, spellcheck: "false"});
    input.value = v === null || v === undefined ? "" : String(v);
    input.addEventListener("input", function () {
      var s = input.value.trim();
      set(p, !num ? input.value : s === "" ? null : isNaN(Number(s)) ? s : Number(s)); update();
    });
    box.appendChild(el("label", {"for": id}, lab)); box.appendChild(input);
  }
  control(p, input, box);
  host.appendChild(box);
}
function render(n, p, cp, lab, host) {
  if (n.t === "obj") {
    var o = get(p), fs = el("fieldset");
    if (!isObj(o)) { o = blank(n); set(p, o); }
    fs.appendChild(el("legend", null, lab));
    n.f.forEach(function (f) { member(n, f, o, p.concat(f.k), cpOf(cp, f.k), fs); });
    return host.appendChild(fs);
  }
  if (n.t === "map") return mapping(n, p, cp, lab, host);
  if (n.t === "arr") return list(n, p, cp, lab, host);
  if (n.t === "alt") return alt(n, p, cp, lab, host);
  field(p, cp, lab, n, host);
}
function member(parent, f, o, p, cp, host) {
  var lab = label(cp, f), offer = offered(p, f.n.t === "arr" ? cpOf(cp, "*") : cp);
  // a value that no longer fits what it depends on is dropped; an optional field with nothing offered is not shown
  if (offer && !isObj(o[f.k]) && !Array.isArray(o[f.k]) && C[cp] && C[cp].some(function (c) { return c[0] === o[f.k]; }) &&
      !offer.some(function (c) { return c[0] === o[f.k]; })) delete o[f.k];
  if (offer && !offer.length && !f.req && !given(o[f.k])) { delete o[f.k]; return; }
  if (!always(f)) {
    var id = "i" + (++uid), box = el("div", {"class": "f opt"});
    var cb = el("input", {type: "checkbox", id: id, "data-k": p.join(".") + "?"});
    cb.checked = f.k in o;   // given, even while its value is still to choose (a select starts at null)
    cb.addEventListener("change", function () {
      if (cb.checked) o[f.k] = f.d !== undefined && f.d !== null ? copy(f.d) : blank(f.n); else delete o[f.k];
      redraw(p.join(".") + "?");
    });
    box.appendChild(cb); box.appendChild(el("label", {"for": id}, " " + lab + " (" + W.opt + ")"));
    host.appendChild(box);
    if (!cb.checked) { delete o[f.k]; return; }
    return render(f.n, p, cp, lab, box);
  }
  if (!(f.k in o)) o[f.k] = f.n.t === "arr" ? [] : f.req ? blank(f.n) : copy(f.d);
  render(f.n, p, cp, lab, host);
}
function button(text, aria, key, fn) {
  var b = el("button", {type: "button", "aria-label": aria, "data-k": key}, text);
  b.addEventListener("click", fn);
  return b;
}
function list(n, p, cp, lab, host) {
  var a = get(p), fs = el("fieldset"), ol = el("ol"), k = p.join("."), sub = cpOf(cp, "*");
  if (!Array.isArray(a)) { a = []; set(p, a); }
  fs.appendChild(el("legend", null, lab));
  a.forEach(function (item, i) {
    var li = el("li"), name = fmt(W.item, {label: LB["field." + sub] || lab, n: i + 1}), tools = el("span", {"class": "tools"});
    function move(d, key) { return function () { var x = a.splice(i, 1)[0]; a.splice(i + d, 0, x); redraw(key); }; }
    var up = button("↑", W.up + ": " + name, k + "." + i + "^", move(-1, k + "." + (i - 1) + "^"));
    var down = button("↓", W.down + ": " + name, k + "." + i + "v", move(1, k + "." + (i + 1) + "v"));
    up.disabled = i === 0; down.disabled = i === a.length - 1;
    tools.appendChild(up); tools.appendChild(down);
    tools.appendChild(button("✕", W.remove + ": " + name, k + "." + i + "x", function () { a.splice(i, 1); redraw(k + "+"); }));
    render(n.i, p.concat(i), sub, name, li);
    li.insertBefore(tools, li.firstChild);
    ol.appendChild(li);
  });
  fs.appendChild(ol);
  var add = button(W.add, W.add + ": " + lab, k + "+", function () { a.push(blank(n.i)); redraw(k + "." + (a.length - 1) + "x"); });
  add.disabled = n.hi !== undefined && a.length >= n.hi;
  fs.appendChild(add);
  control(p, add, fs);
  host.appendChild(fs);
}
// a mapping's keys are the game's choices at its path (a vote per proposal), and any the form gave
function keysOf(p, cp, o) {
  var keys = (offered(p, cp) || []).map(function (c) { return [String(c[0]), c[1], typeof c[0] === "number"]; });
  Object.keys(o).forEach(function (k) { if (!keys.some(function (x) { return x[0] === k; })) keys.push([k, k, false]); });
  return keys;
}
function mapping(n, p, cp, lab, host) {
  var o = get(p), fs = el("fieldset");
  if (!isObj(o)) { o = {}; set(p, o); }
  fs.appendChild(el("legend", null, lab));
  keysOf(p, cp, o).forEach(function (k) { render(n.i, p.concat(k[0]), cpOf(cp, k[0]), k[1], fs); });
  host.appendChild(fs);
}
function alt(n, p, cp, lab, host) {
  var v = get(p), at = pick(n, v), id = "i" + (++uid), box = el("div", {"class": "f"});
  if (at < 0) { at = 0; v = blank(n.o[0]); set(p, v); }
  var sel = el("select", {id: id, "data-k": p.join(".") + "#"});
  n.o.forEach(function (o, i) { sel.appendChild(el("option", {value: String(i)}, kindLabel(cp, o))); });
  sel.value = String(at);
  sel.addEventListener("change", function () { set(p, blank(n.o[+sel.value])); redraw(p.join(".") + "#"); });
  box.appendChild(el("label", {"for": id}, lab + " · " + W.kind)); box.appendChild(sel);
  host.appendChild(box);
  if (n.o[at].t !== "const") render(n.o[at], p, cp, lab, box);
  else control(p, sel, box);
}
function redraw(focus) {
  var host = $("orders");
  ctl = {}; host.textContent = "";
  render(D.s, ["orders"], "", W.orders, host);
  var f = focus && host.querySelector('[data-k="' + focus.replace(/["\\]/g, "\\$&") + '"]');
  if (f && !f.disabled) f.focus();
  else if (focus) { var any = host.querySelector("button:not(:disabled),select,input"); if (any) any.focus(); }
  update();
}

// -- checking ---------------------------------------------------------------------------
function check(n, v, p, cp, errs) {
  if (v === null || v === undefined || v === "") return errs.push([p, W.required]);
  if (n.t === "alt") { var i = pick(n, v); return i < 0 ? errs.push([p, W.enum]) : check(n.o[i], v, p, cp, errs); }
  if ((n.t === "const" || n.t === "enum") && !fits(n, v)) return errs.push([p, W.enum]);
  if (n.t === "int" || n.t === "num") {
    if (!fits(n, v)) return errs.push([p, n.t === "int" ? W.int : W.num]);
    if (n.lo !== undefined && v < n.lo) return errs.push([p, fmt(W.lo, {n: n.lo})]);
    if (n.hi !== undefined && v > n.hi) return errs.push([p, fmt(W.hi, {n: n.hi})]);
  }
  if (n.t === "str" && n.hi !== undefined && v.length > n.hi) return errs.push([p, fmt(W.long, {n: n.hi})]);
  if ((n.t === "str" || n.t === "int") && C[cp] && !C[cp].some(function (c) { return c[0] === v; })) return errs.push([p, W.offer]);
  if (n.t === "arr") {
    if (n.hi !== undefined && v.length > n.hi) errs.push([p, fmt(W.many, {n: n.hi})]);
    if (n.lo !== undefined && v.length < n.lo) errs.push([p, fmt(W.few, {n: n.lo})]);
    v.forEach(function (x, i) { check(n.i, x, p.concat(i), cpOf(cp, "*"), errs); });
  }
  if (n.t === "map") Object.keys(v).forEach(function (k) {
    if (v[k] !== null && v[k] !== "") check(n.i, v[k], p.concat(k), cpOf(cp, k), errs);
  });
  if (n.t === "obj") n.f.forEach(function (f) {
    // a field shown for its default (not required, no box to give it) may stay empty: it is left out
    if (!f.req && always(f) && (v[f.k] === "" || v[f.k] === null)) return;
    if (f.k in v) check(f.n, v[f.k], p.concat(f.k), cpOf(cp, f.k), errs);
    else if (f.req) errs.push([p.concat(f.k), W.required]);
  });
}

// -- the YAML ----------------------------------------------------------------------------
function q(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v !== "string") return String(v);
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(v) && !/^(y|yes|n|no|true|false|on|off|null)$/i.test(v) ? v : JSON.stringify(v);
}
function flat(v) { return !Array.isArray(v) ? !isObj(v) : v.every(function (x) { return !isObj(x) && (!Array.isArray(x) || x.every(flat)); }); }
function flow(v) { return Array.isArray(v) ? "[" + v.map(flow).join(", ") + "]" : q(v); }
function map(n, v, ind, out, cp) {
  var fields = n.t === "map" ? Object.keys(v).map(function (k) { return {k: k, n: n.i, m: 1}; }) : n.f || [];
  fields.forEach(function (f) {
    if (!(f.k in v)) return;
    var x = v[f.k], sub = node(f.n, x), at = cpOf(cp, f.k);
    // a mapping's key the game offered as a number is written as one (``12: pro``)
    var k = f.m && (C[cp] || []).some(function (c) { return typeof c[0] === "number" && String(c[0]) === f.k; }) ? f.k : q(f.k);
    if ((x === null || x === "") && !f.req) return;
    if (Array.isArray(x) && !x.length && !f.req) return;
    if (flat(x)) return out.push(ind + k + ": " + flow(x));
    if (isObj(x)) {
      var inner = map(sub, x, ind + "  ", [], at);
      if (!inner.length) return out.push(ind + k + ": {}");
      out.push(ind + k + ":"); return inner.forEach(function (l) { out.push(l); });
    }
    out.push(ind + k + ":");
    x.forEach(function (item) { entry(node(sub.i, item), item, ind + "  ", out, cpOf(at, "*")); });
  });
  return out;
}
function entry(n, v, ind, out, cp) {
  if (flat(v)) return out.push(ind + "- " + flow(v));
  var lines = map(n, v, ind + "  ", [], cp);
  if (!lines.length) return out.push(ind + "- {}");
  out.push(ind + "- " + lines[0].slice(ind.length + 2));
  for (var i = 1; i < lines.length; i++) out.push(lines[i]);
}
function yaml(key) {
  var h = D.h, body = map(node(D.s, root.orders), root.orders, "  ", [], "");
  return ["match: " + q(h.match), "player: " + q(h.player), "key: " + (key ? q(key) : ""), "turn: " + h.turn,
          "orders:" + (body.length ? "" : " {}")].concat(body).join("\n") + "\n";
}

// -- the mail ----------------------------------------------------------------------------
function key() { return $("key").value.trim(); }
function update() {
  var errs = [], k;
  check(D.s, root.orders, ["orders"], "", errs);
  for (k in ctl) { ctl[k].msg.textContent = ""; ctl[k].input.removeAttribute("aria-invalid"); }
  errs.forEach(function (e) {
    var c = ctl[e[0].join(".")] || ctl[e[0].slice(0, -1).join(".")];
    if (c) { c.msg.textContent = c.msg.textContent ? c.msg.textContent + " " + e[1] : e[1]; c.input.setAttribute("aria-invalid", "true"); }
  });
  $("status").textContent = errs.length ? fmt(W.bad, {n: errs.length}) : W.ok;
  var text = yaml(key()), mail = $("mail");
  $("doc").value = text;
  $("doc").rows = Math.min(30, text.split("\n").length + 1);
  if (key() && /^[^\s?#&]+@[^\s?#&]+$/.test(D.to)) {
    mail.href = "mailto:" + D.to + "?subject=" + encodeURIComponent(D.subj) + "&body=" + encodeURIComponent(text.replace(/\n/g, "\r\n"));
  } else mail.href = "#key";
  if (key()) $("alert").textContent = "";
}
$("mail").addEventListener("click", function (ev) {
  if (key()) { $("alert").textContent = ""; $("status").textContent = fmt(W.opened, {to: D.to}); return; }
  ev.preventDefault();
  $("alert").textContent = W.need_key;
  $("key").setAttribute("aria-invalid", "true");
  $("key").focus();
});
$("copy").addEventListener("click", function () {
  var text = yaml(key()), done = function () { $("status").textContent = fmt(W.copied, {to: D.to}); };
  var fallback = function () {
    var t = $("doc"); t.focus(); t.select();
    try { if (document.execCommand("copy")) return done(); } catch (e) { /* refused below */ }
    $("status").textContent = W.copy_fail;
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
});
$("key").addEventListener("input", function () { $("key").removeAttribute("aria-invalid"); update(); });
$("f").addEventListener("submit", function (ev) { ev.preventDefault(); });
$("h").textContent = fmt(W.title, {turn: D.h.turn}) + " · " + D.title;
$("intro").textContent = W.intro;
$("keylab").textContent = W.key; $("keyhelp").textContent = W.key_help;
$("doclab").textContent = W.doc; $("copy").textContent = W.copy; $("mail").textContent = W.mail;
$("envelope").textContent = W.to + ": " + D.to + " · " + W.subject + ": " + D.subj;
$("key").value = "";
redraw();
})();
