import { TOAST_TIMEOUT_MS, type ToastType } from '@ce/contract';

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  title?: string;
  timeout: number;
  endsWithSession: boolean;
  /** Where the news is: a page of the app ("Open in My Reports"). */
  link?: ToastLink;
}

export interface ToastLink {
  /** A path of the app. */
  to: string;
  label: string;
}

export interface ToastOptions {
  title?: string;
  /** Milliseconds; defaults to the type's duration from spec section 9. */
  timeout?: number;
  /** About the signed-in user's own work: it goes when their session ends (sign-out, expiry, another user). */
  endsWithSession?: boolean;
  link?: ToastLink;
}

type Listener = () => void;

/** The one toast store of the app. Framework-free so the API client and tests can use it too. */
export function createToastStore(schedule: typeof setTimeout = setTimeout) {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((listener) => listener());

  function keepOnly(wanted: (toast: Toast) => boolean) {
    const before = toasts.length;
    toasts = toasts.filter(wanted);
    if (toasts.length !== before) emit();
  }
  const dismiss = (id: number) => keepOnly((toast) => toast.id !== id);

  function show(type: ToastType, message: string, options: ToastOptions = {}): number {
    const toast: Toast = {
      id: nextId++,
      type,
      message,
      title: options.title,
      timeout: options.timeout ?? TOAST_TIMEOUT_MS[type],
      endsWithSession: options.endsWithSession ?? false,
      ...(options.link ? { link: options.link } : {}),
    };
    toasts = [...toasts, toast];
    emit();
    schedule(() => dismiss(toast.id), toast.timeout);
    return toast.id;
  }

  /** The session ended: its toasts go, whatever time they had left. */
  const endSession = () => keepOnly((toast) => !toast.endsWithSession);

  return {
    show,
    dismiss,
    endSession,
    success: (message: string, options?: ToastOptions) => show('success', message, options),
    error: (message: string, options?: ToastOptions) => show('error', message, options),
    info: (message: string, options?: ToastOptions) => show('info', message, options),
    warning: (message: string, options?: ToastOptions) => show('warning', message, options),
    message: (message: string, options?: ToastOptions) => show('default', message, options),
    getSnapshot: () => toasts,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

export const toast = createToastStore();
