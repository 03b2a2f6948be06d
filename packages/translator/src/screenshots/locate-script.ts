/**
 * The in-page part of a capture, as source text (the translator is not compiled against the DOM): finds
 * the element that shows a phrase, scrolls it to the middle of the viewport, outlines it and answers its
 * box in viewport coordinates (or null when the page does not show the text).
 *
 * The text is matched as the page client reads it: whitespace collapsed, and for a key with slots
 * (`Hello {{text:0}}, you have {{number:1}} messages`) the words between the slots must appear in order.
 * The smallest visible element holding them all wins; attributes the page client reads (placeholder,
 * alt, title, aria-label) are tried when no element's text holds the phrase.
 */
export const LOCATE_SCRIPT = String.raw`(function locate(args) {
  var key = args.key;
  var marker = args.marker;
  var collapse = function (text) { return (text || '').replace(/\s+/g, ' ').trim(); };
  var parts = key.split(/\{\{[^{}]*\}\}/).map(collapse).filter(function (part) { return part.length > 0; });
  if (!parts.length) return null;
  var holds = function (text) {
    var at = 0;
    for (var i = 0; i < parts.length; i++) {
      var found = text.indexOf(parts[i], at);
      if (found < 0) return false;
      at = found + parts[i].length;
    }
    return true;
  };
  var visible = function (element) {
    var box = element.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return false;
    var style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  var best = null;
  var bestLength = Infinity;
  var all = document.body ? document.body.querySelectorAll('*') : [];
  for (var i = 0; i < all.length; i++) {
    var element = all[i];
    var tag = element.tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE') continue;
    var text = collapse(element.textContent);
    if (text.length >= bestLength || !holds(text) || !visible(element)) continue;
    best = element;
    bestLength = text.length;
  }
  if (!best) {
    var names = ['placeholder', 'alt', 'title', 'aria-label'];
    for (var j = 0; j < all.length && !best; j++) {
      for (var n = 0; n < names.length; n++) {
        var value = all[j].getAttribute(names[n]);
        if (value && holds(collapse(value)) && visible(all[j])) { best = all[j]; break; }
      }
    }
  }
  if (!best) return null;
  var previous = document.querySelector('[' + marker + ']');
  if (previous) {
    previous.style.outline = previous.getAttribute(marker + '-outline') || '';
    previous.style.outlineOffset = previous.getAttribute(marker + '-offset') || '';
    previous.removeAttribute(marker);
  }
  best.setAttribute(marker, '');
  best.setAttribute(marker + '-outline', best.style.outline);
  best.setAttribute(marker + '-offset', best.style.outlineOffset);
  best.scrollIntoView({ block: 'center', inline: 'center' });
  best.style.outline = '3px solid red';
  best.style.outlineOffset = '2px';
  var rect = best.getBoundingClientRect();
  return {
    x: rect.x,
    y: rect.y,
    width: rect.width,
    height: rect.height,
    viewportWidth: document.documentElement.clientWidth || innerWidth,
    viewportHeight: document.documentElement.clientHeight || innerHeight,
  };
})`;

export interface LocatedBox {
  x: number;
  y: number;
  width: number;
  height: number;
  viewportWidth: number;
  viewportHeight: number;
}

/**
 * The region to photograph around an element's box: at most `max` (centred on the element, or its top
 * left when the element is larger), the outline's margin included, inside the viewport.
 */
export function clipAround(box: LocatedBox, max: { width: number; height: number }, margin = 24) {
  const width = Math.min(max.width, box.viewportWidth);
  const height = Math.min(max.height, box.viewportHeight);
  const centre = (start: number, size: number, room: number, view: number) => {
    const wanted = size + 2 * margin <= room ? start + size / 2 - room / 2 : start - margin;
    return Math.max(0, Math.min(wanted, view - room));
  };
  return {
    x: Math.floor(centre(box.x, box.width, width, box.viewportWidth)),
    y: Math.floor(centre(box.y, box.height, height, box.viewportHeight)),
    width: Math.floor(width),
    height: Math.floor(height),
  };
}
