"""Counting taps and keystrokes on a phone page (``entry_taps.py``, ``acceptance_taps.py``).

A tap is counted on each click; a keystroke on each key. Before a tap the control must be
on screen and not under anything else (a sticky bar): when it is not, the counter scrolls
it into view and marks the count "scrolled", as a person would have had to scroll.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Whether an element is on screen and is what a tap at its centre would hit.
ON_SCREEN = """el => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (r.top < 0 || r.bottom > window.innerHeight) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el.contains(hit) || hit.contains(el)
        || (el.control !== undefined && el.control === hit));
}"""


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    scrolled: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.taps + self.keys


class TapCounter:
    """Taps and keystrokes on one Playwright page, counted into ``count``."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = Count()

    def start(self) -> Count:
        """A new count, for the next thing done (a deal, a side's acceptance)."""
        self.count = Count()
        return self.count

    def on_screen(self, locator) -> bool:
        return locator.evaluate(ON_SCREEN)

    def see(self, locator, why: str) -> None:
        """The person has to see ``locator``: scroll to it if it is off screen or covered."""
        locator = locator.first
        locator.wait_for(state="visible")
        if not self.on_screen(locator):
            self.count.scrolled = True
            self.count.notes.append(f"scrolled to {why}")
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, locator, why: str) -> None:
        self.see(locator, why)
        locator.first.click()
        self.count.taps += 1

    def type_digits(self, digits: str) -> None:
        """Each digit a keystroke of its own."""
        for digit in digits:
            self.page.keyboard.press(digit)
            self.count.keys += 1
