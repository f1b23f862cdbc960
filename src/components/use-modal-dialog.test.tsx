// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { useRef, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ModalDialog } from "./modal-dialog";
import { useModalDialog } from "./use-modal-dialog";

function Probe({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { ref, dialogProps } = useModalDialog(open, onClose);
  return (
    <dialog ref={ref} aria-label="Probe" {...dialogProps}>
      inside
    </dialog>
  );
}

describe("useModalDialog", () => {
  it("when open flips, then the dialog element opens and closes with it", () => {
    const onClose = vi.fn();
    const { rerender } = render(<Probe open={false} onClose={onClose} />);
    const dialog = screen.getByText("inside").closest("dialog") as HTMLDialogElement;
    expect(dialog.open).toBe(false);
    rerender(<Probe open onClose={onClose} />);
    expect(dialog.open).toBe(true);
    rerender(<Probe open={false} onClose={onClose} />);
    expect(dialog.open).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("when Escape cancels it, then the browser's own close is prevented and onClose decides", () => {
    const onClose = vi.fn();
    render(<Probe open onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { name: "Probe", hidden: true });
    const cancel = new Event("cancel", { cancelable: true });
    fireEvent(dialog, cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

function Confirm({ withReturn }: { withReturn: boolean }) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button">Elsewhere</button>
      <button type="button" ref={trigger} onClick={() => setOpen(true)}>
        Open
      </button>
      <ModalDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Sure?"
        width="sm"
        description={<p>It cannot be undone.</p>}
        initialFocus={keep}
        {...(withReturn ? { returnFocus: trigger } : {})}
      >
        <button type="button">Go ahead</button>
        <button type="button" ref={keep} onClick={() => setOpen(false)}>
          Keep it
        </button>
      </ModalDialog>
    </>
  );
}

describe("ModalDialog focus", () => {
  it("when it opens, then the initial choice has focus; when it closes, then the opener gets it back", () => {
    render(<Confirm withReturn />);
    const opener = screen.getByRole("button", { name: "Open" });
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Sure?" });
    expect(dialog).toHaveAccessibleDescription("It cannot be undone.");
    expect(screen.getByRole("button", { name: "Keep it" })).toHaveFocus();
    fireEvent.click(screen.getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(opener).toHaveFocus();
  });

  it("when no opener is named, then focus goes back to what had it before", () => {
    render(<Confirm withReturn={false} />);
    const elsewhere = screen.getByRole("button", { name: "Elsewhere" });
    elsewhere.focus();
    // Opened by keyboard shortcut, say: the opener never took focus.
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    fireEvent(
      screen.getByRole("dialog", { name: "Sure?" }),
      new Event("cancel", { cancelable: true }),
    );
    expect(elsewhere).toHaveFocus();
  });
});
