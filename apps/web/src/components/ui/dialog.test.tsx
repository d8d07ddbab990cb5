import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Alerts Report
      </button>
      <a href="/behind">A link behind the dialog</a>
      <Dialog
        title="Alerts Report"
        isOpen={open}
        onClose={() => setOpen(false)}
        footer={<button type="button">Next</button>}
      >
        <input aria-label="OAuth token" />
        <button type="button">Load</button>
      </Dialog>
    </>
  );
}

const tab = (shiftKey = false) => fireEvent.keyDown(document, { key: 'Tab', shiftKey });

describe('Dialog', () => {
  it('focuses its first field, keeps Tab and Shift+Tab inside, and gives focus back on Escape', () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Alerts Report' });
    opener.focus();
    fireEvent.click(opener);
    const field = screen.getByLabelText('OAuth token');
    expect(document.activeElement).toBe(field);
    // Close (X), the field, Load, Next: from the last, Tab wraps to the first.
    screen.getByRole('button', { name: 'Next' }).focus();
    tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    tab(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }));
    // Focus that escaped to the page behind is brought back in.
    screen.getByRole('link', { name: 'A link behind the dialog' }).focus();
    tab();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('focuses the button marked data-autofocus first: a confirmation opens on its Cancel', () => {
    render(
      <Dialog
        title="Delete the backup?"
        isOpen
        onClose={() => {}}
        footer={
          <>
            <button type="button" data-autofocus>
              Cancel
            </button>
            <button type="button">Delete Backup</button>
          </>
        }
      >
        <p>The archive goes too.</p>
      </Dialog>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('closes on the backdrop and on its X button', () => {
    render(<Page />);
    fireEvent.click(screen.getByRole('button', { name: 'Alerts Report' }));
    fireEvent.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Alerts Report' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
