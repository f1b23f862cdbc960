// The remark plugins of agent Markdown, named once: the SPA's renderer and the daemon's first
// screen of a session link (src/first-screen) parse the same way, or their rows drift apart.
import remarkGfm from "remark-gfm";
import { remarkContentHeadings } from "./heading-levels";

export const REMARK_PLUGINS = [remarkGfm, remarkContentHeadings];
