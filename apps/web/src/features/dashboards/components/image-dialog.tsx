import { useRef } from 'react';
import { DASHBOARD_MESSAGES } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';

export interface ImageDialogProps {
  title: string;
  src: string | null;
  position: number;
  onClose: () => void;
}

/** One screenshot, large; a click on it (or Fullscreen) shows it on the whole screen where the browser can. */
export function ImageDialog({ title, src, position, onClose }: ImageDialogProps) {
  const image = useRef<HTMLImageElement>(null);
  const fullscreen = () => {
    const element = image.current;
    if (!element || typeof element.requestFullscreen !== 'function' || !document.fullscreenEnabled) {
      toast.error(DASHBOARD_MESSAGES.fullscreenUnsupported);
      return;
    }
    element.requestFullscreen().catch(() => toast.error(DASHBOARD_MESSAGES.fullscreenUnsupported));
  };
  return (
    <Dialog
      title={`${title}: screenshot ${position}`}
      isOpen={src !== null}
      onClose={onClose}
      width="max-w-5xl"
      footer={
        <>
          <Button onClick={fullscreen}>Fullscreen</Button>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {src && (
        <button
          type="button"
          onClick={fullscreen}
          className="mx-auto block cursor-zoom-in"
          aria-label="Show fullscreen"
        >
          <img
            ref={image}
            src={src}
            alt={`${title}, screenshot ${position}`}
            className="max-h-[70vh] bg-white object-contain"
          />
        </button>
      )}
    </Dialog>
  );
}
