import { byId, h } from "./dom.js";

/** The most an amount box takes: a stack's most (src/game/types.ts MAX_STACK). */
const MOST = 2_147_483_647;
const SUFFIX: Record<string, number> = { "": 1, k: 1_000, m: 1_000_000, b: 1_000_000_000 };

/** "25", "10k", "1.5m" as a whole number of items; null when it is not a positive whole amount a stack can hold. */
export function parseAmount(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmb]?)\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]) * SUFFIX[m[2]!.toLowerCase()]!;
  return Number.isInteger(n) && n > 0 && n <= MOST ? n : null;
}

/** The box open now: what answers it, and what had the focus before it. */
let open: { answer: (n: number | null) => void; before: Element | null } | null = null;

/**
 * Ask for an amount in a small box over the map (never the browser's `prompt()`): the field is
 * filled with `fallback` and selected, Enter or OK gives the amount typed (25, 10k, 1.5m; anything
 * else is said wrong and the box stays), Escape or Cancel gives null. One box at a time: asking
 * again cancels the one open. The focus goes back where it was.
 */
export function askAmount(label: string, fallback: number): Promise<number | null> {
  cancelAmount();
  const box = byId("amount");
  const input = h("input", { type: "text", inputMode: "numeric", autocomplete: "off", className: "amount-input", value: String(fallback) });
  input.setAttribute("aria-label", label);
  const wrong = h("span", { className: "amount-error", role: "alert" });
  return new Promise((resolve) => {
    const mine = { answer: resolve, before: document.activeElement };
    open = mine;
    const ok = () => {
      const n = parseAmount(input.value);
      if (n === null) {
        wrong.textContent = "A whole number, such as 25, 10k or 1m";
        input.focus();
        return;
      }
      close(mine, n);
    };
    input.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape") return;
      // The box's own: the page's Escape (keyboard.ts) is not told.
      ev.stopPropagation();
      ev.preventDefault();
      close(mine, null);
    });
    box.replaceChildren(
      h(
        "form",
        {
          onsubmit: (ev: SubmitEvent) => {
            ev.preventDefault();
            ok();
          },
        },
        h("label", {}, h("span", {}, label), input),
        h(
          "span",
          { className: "actions" },
          h("button", { type: "submit", textContent: "OK" }),
          h("button", { type: "button", textContent: "Cancel", onclick: () => close(mine, null) }),
        ),
        wrong,
      ),
    );
    box.hidden = false;
    input.focus();
    input.select();
  });
}

function close(which: NonNullable<typeof open>, answer: number | null) {
  if (open !== which) return;
  open = null;
  const box = byId("amount");
  box.hidden = true;
  box.replaceChildren();
  if (which.before instanceof HTMLElement && which.before.isConnected) which.before.focus();
  else byId("world").focus();
  which.answer(answer);
}

/** Close the amount box open, as Cancel does; false when none was. */
export function cancelAmount(): boolean {
  if (!open) return false;
  close(open, null);
  return true;
}

/** Ask for an amount and, given one, do something with it. */
export function withAmount(label: string, fallback: number, then: (n: number) => void) {
  void askAmount(label, fallback).then((n) => {
    if (n !== null) then(n);
  });
}
