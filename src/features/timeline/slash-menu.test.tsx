// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { SlashMenu } from "./slash-menu";
import { menuCommandsOf } from "./slash-menu-view";
import { useSlashMenu } from "./use-slash-menu";

const commands = menuCommandsOf([
  { canonical_token: "/compact", description: "Summarise and clear", input_hint: "<instructions>" },
  { canonical_token: "/context", description: "Show context usage" },
  { canonical_token: "/review", description: "Review a pull request" },
]);

/** The composer's text area with the menu, as the composer wires them. */
function Harness({ sent }: { sent: string[] }) {
  const [draft, setDraft] = useState("");
  const menu = useSlashMenu(draft, commands, setDraft);
  return (
    <div>
      <SlashMenu menu={menu} />
      <label>
        Message
        <textarea
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (menu.onKeyDown(event)) return;
            if (event.key === "Enter" && event.ctrlKey) sent.push(draft);
          }}
          {...menu.inputProps}
        />
      </label>
    </div>
  );
}

describe("SlashMenu", () => {
  it("when '/' starts the draft, then a listbox of commands opens and filters as you type", async () => {
    const user = userEvent.setup();
    render(<Harness sent={[]} />);
    // The ARIA combobox pattern on the text area: collapsed until a command matches.
    const box = screen.getByRole("combobox", { name: "Message" });
    expect(box).toHaveAttribute("aria-autocomplete", "list");
    expect(box).toHaveAttribute("aria-expanded", "false");
    await user.type(box, "/");
    const list = screen.getByRole("listbox", { name: "Commands" });
    expect(box).toHaveAttribute("aria-expanded", "true");
    expect(box).toHaveAttribute("aria-controls", list.id);
    expect(screen.getAllByRole("option")).toHaveLength(3);
    await user.type(box, "co");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([
      "/compact<instructions>Summarise and clear",
      "/contextShow context usage",
    ]);
    expect(screen.getByRole("option", { name: /\/compact/ })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });

  it("when arrows move and Enter picks, then the draft is the command and the menu closes", async () => {
    const user = userEvent.setup();
    render(<Harness sent={[]} />);
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/");
    await user.keyboard("{ArrowDown}");
    const active = screen.getByRole("option", { name: /\/context/ });
    expect(active).toHaveAttribute("aria-selected", "true");
    expect(box).toHaveAttribute("aria-activedescendant", active.id);
    await user.keyboard("{ArrowUp}{ArrowUp}");
    expect(screen.getByRole("option", { name: /\/review/ })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await user.keyboard("{Enter}");
    expect(box).toHaveValue("/review");
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("when Tab picks a command that takes input, then a space follows it and the menu stays closed", async () => {
    const user = userEvent.setup();
    render(<Harness sent={[]} />);
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/comp");
    await user.keyboard("{Tab}");
    expect(box).toHaveValue("/compact ");
    expect(box).toHaveFocus();
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("when Escape closes it, then it stays closed for that draft and reopens as you type on", async () => {
    const user = userEvent.setup();
    const sent: string[] = [];
    render(<Harness sent={sent} />);
    const box = screen.getByRole("combobox", { name: "Message" });
    await user.type(box, "/c");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(box).toHaveAttribute("aria-expanded", "false");
    expect(box).not.toHaveAttribute("aria-activedescendant");
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(sent).toEqual(["/c"]);
    await user.type(box, "o");
    expect(screen.getByRole("listbox")).toBeInTheDocument();
  });

  it("when nothing matches, then no menu is shown", async () => {
    const user = userEvent.setup();
    render(<Harness sent={[]} />);
    await user.type(screen.getByRole("combobox", { name: "Message" }), "/zzz");
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});
