import { Icon, type IconName } from '../Icon';

/** A line's picture; a quiet placeholder when the organiser has not uploaded one. */
export function Thumbnail({ src, fallback }: { src: string; fallback: IconName }) {
  return src ? (
    <img className="line__thumb" src={src} alt="" width={72} height={72} loading="lazy" decoding="async" />
  ) : (
    <span className="line__thumb line__thumb--empty">
      <Icon name={fallback} />
    </span>
  );
}
