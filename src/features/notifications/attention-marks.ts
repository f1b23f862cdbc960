// The page's own signs that something waits: "(2) " before the tab's title and a dot on its
// icon. Another part of the page may set the title at any time (the session's name): the
// prefix is put back whenever the title changes, and taken off at zero.
const PREFIX = /^\(\d+\) /;
const DOT =
  '<circle cx="25" cy="7" r="6.5" fill="#dc2626" stroke="#ffffff" stroke-width="2"/></svg>';

let count = 0;
let observer: MutationObserver | undefined;
let plainIcon: string | undefined;
let dottedIcon: string | undefined;

function applyTitle() {
  const base = document.title.replace(PREFIX, "");
  const wanted = count > 0 ? `(${count}) ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

function iconLink(): HTMLLinkElement | null {
  return document.querySelector<HTMLLinkElement>('link[rel="icon"]');
}

async function applyIcon() {
  const link = iconLink();
  if (!link) return;
  plainIcon ??= link.href;
  if (count === 0) {
    link.href = plainIcon;
    return;
  }
  if (dottedIcon === undefined) {
    const svg = await fetch(plainIcon)
      .then((response) => (response.ok ? response.text() : ""))
      .catch(() => "");
    if (!svg.includes("</svg>")) return;
    dottedIcon = `data:image/svg+xml,${encodeURIComponent(svg.replace("</svg>", DOT))}`;
  }
  if (count > 0) link.href = dottedIcon;
}

/** Shows `next` waiting events in the title and the icon (0 clears both). */
export function showAttention(next: number) {
  count = Math.max(0, Math.floor(next));
  if (observer === undefined && typeof MutationObserver !== "undefined") {
    const title =
      document.querySelector("title") ?? document.head.appendChild(document.createElement("title"));
    observer = new MutationObserver(applyTitle);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
  }
  applyTitle();
  void applyIcon();
}
