"""Touch targets on the phone page: every visible control at least 44x44 CSS px."""

from __future__ import annotations

from typing import Any

MIN_TARGET = 44

# Each visible control that is smaller than MIN_TARGET, as "what [width x height]". Exempt, as
# WCAG 2.5.8 allows: a link inside a sentence (a parent with other text, not styled as a button),
# and a radio or checkbox inside a label (the label is the target, and is checked instead). The
# skip link is off screen until a keyboard focuses it, and is not counted.
SMALL_TARGETS = """min => {
  const found = [];
  const controls = "button, a[href], input:not([type=hidden]), select, textarea, summary, label";
  for (const el of document.querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (box.right <= 0 || box.bottom <= 0) continue; // off screen until focused: the skip link
    if (el.closest(".visually-hidden, .skip-link:not(:focus)")) continue;
    if (el.tagName === "LABEL" && !el.querySelector("input, select, textarea")) continue;
    if (["radio", "checkbox"].includes(el.type) && el.closest("label")) continue;
    if (el.tagName === "A" && !el.classList.contains("button")) {
      const sentence = el.closest("p");
      if (sentence && sentence.textContent.trim() !== el.textContent.trim()) continue;
    }
    if (box.width < min || box.height < min) {
      const name = (el.getAttribute("data-testid") || el.id || el.textContent || el.type).trim();
      const what = `${el.tagName.toLowerCase()}.${el.className} ${name.slice(0, 30)}`;
      found.push(`${what} [${Math.round(box.width)}x${Math.round(box.height)}]`);
    }
  }
  return found;
}"""


def small_targets(page: Any) -> list[str]:
    """The visible controls on the page under MIN_TARGET in width or height."""
    return page.evaluate(SMALL_TARGETS, MIN_TARGET)
