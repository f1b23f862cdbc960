// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
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
