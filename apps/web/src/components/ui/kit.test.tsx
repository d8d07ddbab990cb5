import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Badge } from './badge';
import { Banner } from './banner';
import { Button } from './button';
import { FileButton } from './file-button';
import { Select, TextInput } from './field';

describe('Button', () => {
  it('is a plain button that does not submit, in the look of its variant', () => {
    const click = vi.fn();
    render(
      <form onSubmit={() => click('submitted')}>
        <Button variant="danger" onClick={() => click('clicked')}>
          Delete
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    fireEvent.click(button);
    expect(click.mock.calls).toEqual([['clicked']]);
    expect(button.className).toContain('bg-red-700');
  });

  it('while busy: shows a spinner that says so, keeps its text, and refuses clicks', () => {
    const click = vi.fn();
    render(
      <Button busy busyLabel="Creating tests" onClick={click}>
        Execute Bulk Tests
      </Button>,
    );
    const button = screen.getByRole('button', { name: /Execute Bulk Tests/ });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status', { name: 'Creating tests' })).toBeTruthy();
    fireEvent.click(button);
    expect(click).not.toHaveBeenCalled();
  });
});

describe('Field controls', () => {
  it('name the control by its label, describe it by the hint and the error, and mark it invalid', () => {
    render(<TextInput label="URL *" hint="http:// or https://" error="URL must start with http:// or https://" />);
    const input = screen.getByLabelText('URL *');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id));
    expect(described.map((element) => element?.textContent)).toEqual([
      'http:// or https://',
      'URL must start with http:// or https://',
    ]);
  });

  it('leave a valid control unmarked, and a select offers its choices after a placeholder', () => {
    const change = vi.fn();
    render(
      <Select
        label="Interval"
        placeholder="Choose…"
        options={[
          { value: '60', label: '1 minute' },
          { value: '300', label: '5 minutes' },
        ]}
        onChange={(event) => change(event.target.value)}
      />,
    );
    const select = screen.getByLabelText('Interval');
    expect(select.hasAttribute('aria-invalid')).toBe(false);
    expect(Array.from(select.querySelectorAll('option')).map((option) => option.textContent)).toEqual([
      'Choose…',
      '1 minute',
      '5 minutes',
    ]);
    fireEvent.change(select, { target: { value: '300' } });
    expect(change).toHaveBeenCalledWith('300');
  });
});

describe('Badge', () => {
  it('shows its text in the tone asked', () => {
    render(<Badge tone="success">approved</Badge>);
    expect(screen.getByText('approved').className).toContain('bg-green-100');
  });
});

describe('Banner', () => {
  it('announces an error at once and a warning politely, with its action beside the message', () => {
    const retry = vi.fn();
    render(
      <>
        <Banner tone="error">Lost</Banner>
        <Banner tone="warning" action={<Button onClick={retry}>Retry</Button>}>
          Figures missing
        </Banner>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Lost');
    const warning = screen.getByRole('status');
    expect(warning.textContent).toBe('Figures missingRetry');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});

describe('FileButton', () => {
  it('opens the file dialog from its button and hands over the chosen file, once', () => {
    const onFile = vi.fn();
    render(
      <FileButton inputLabel="Templates file" onFile={onFile}>
        Import Templates
      </FileButton>,
    );
    const input = screen.getByLabelText<HTMLInputElement>('Templates file');
    const opened = vi.fn();
    input.addEventListener('click', opened);
    fireEvent.click(screen.getByRole('button', { name: 'Import Templates' }));
    expect(opened).toHaveBeenCalledOnce();
    const file = new File(['{}'], 'templates.json', { type: 'application/json' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    expect(input.value).toBe('');
  });
});
