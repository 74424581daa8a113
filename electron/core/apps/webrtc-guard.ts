// WebRTC is closed to MCP apps: a peer connection reaches any host and port over UDP (its STUN and TURN servers are
// not fetches, so the app's connect-src does not govern them, and a TURN username carries data), and no browser we
// ship to enforces a policy against it (neither the CSP `webrtc` directive nor a Permissions-Policy stops it in
// Chromium). So the app's document starts with a script, run before any of the app's own, that replaces the WebRTC
// constructors with ones that throw, in the document and in every same-origin frame the app creates.
/** The constructors replaced (the peer connection and what could stand in for it). */
const WEBRTC_GLOBALS = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'mozRTCPeerConnection', 'RTCIceTransport', 'RTCDataChannel'];

/**
 * The guard, as plain browser JavaScript. A nested frame of the app has an opaque origin of its own (the sandbox
 * flags pass down), so the guard cannot reach into it; instead every `srcdoc` the app gives a frame (the one way to
 * put script in a frame without a fetch its CSP governs) is made to start with this same guard, whether set as a
 * property, an attribute or parsed from markup (the last is caught by a mutation observer before the frame loads).
 */
export const WEBRTC_GUARD_SCRIPT = `(function guardWebRtc() {
  'use strict';
  var names = ${JSON.stringify(WEBRTC_GLOBALS)};
  var tag = '<script>(' + String(guardWebRtc) + ')();</' + 'script>';
  var refuse = function () { throw new DOMException('WebRTC is not available to MCP apps', 'NotAllowedError'); };
  for (var i = 0; i < names.length; i++) {
    if (names[i] in window) Object.defineProperty(window, names[i], { value: refuse, writable: false, configurable: false, enumerable: false });
  }
  var guarded = function (doc) { doc = String(doc); return doc.indexOf(tag) === 0 ? doc : tag + doc; };
  var frame = HTMLIFrameElement.prototype;
  var srcdoc = Object.getOwnPropertyDescriptor(frame, 'srcdoc');
  if (srcdoc && srcdoc.set) {
    Object.defineProperty(frame, 'srcdoc', { configurable: false, enumerable: srcdoc.enumerable, get: srcdoc.get,
      set: function (v) { srcdoc.set.call(this, guarded(v)); } });
  }
  var set = Element.prototype.setAttribute;
  var setNS = Element.prototype.setAttributeNS;
  var isSrcdoc = function (el, name) { return el instanceof HTMLIFrameElement && String(name).toLowerCase() === 'srcdoc'; };
  Object.defineProperty(Element.prototype, 'setAttribute', { configurable: false, writable: false, value: function (name, value) {
    return set.call(this, name, isSrcdoc(this, name) ? guarded(value) : value);
  } });
  Object.defineProperty(Element.prototype, 'setAttributeNS', { configurable: false, writable: false, value: function (ns, name, value) {
    return setNS.call(this, ns, name, isSrcdoc(this, name) ? guarded(value) : value);
  } });
  var fix = function (el) {
    var v = el.getAttribute('srcdoc');
    if (v !== null && v.indexOf(tag) !== 0) set.call(el, 'srcdoc', tag + v);
  };
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      if (r.type === 'attributes') { if (r.target instanceof HTMLIFrameElement) fix(r.target); return; }
      r.addedNodes.forEach(function (n) {
        if (n instanceof HTMLIFrameElement) fix(n);
        if (n.querySelectorAll) Array.prototype.forEach.call(n.querySelectorAll('iframe[srcdoc]'), fix);
      });
    });
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['srcdoc'] });
})();`;

/** The app's HTML with the guard as its first script (after a doctype, so the document keeps its standards mode). */
export function withWebRtcGuard(html: string): string {
  const tag = `<script>${WEBRTC_GUARD_SCRIPT}</script>`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${tag}${html.slice(doctype[0].length)}` : `${tag}${html}`;
}
