// Line icons of the chat page, on the same 16px grid as components/ui/icons. Decorative.
import { Icon, type IconProps } from "@/components/ui/icons";

export function ArrowUpIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M8 13V3.5M3.75 7.5 8 3.25l4.25 4.25" />
    </Icon>
  );
}

export function StopIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="4" y="4" width="8" height="8" rx="1.5" fill="currentColor" stroke="none" />
    </Icon>
  );
}

export function CopyIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="5.25" y="5.25" width="8" height="8" rx="1.75" />
      <path d="M10.75 5.25V4a1.25 1.25 0 0 0-1.25-1.25H4A1.25 1.25 0 0 0 2.75 4v5.5A1.25 1.25 0 0 0 4 10.75h1.25" />
    </Icon>
  );
}

export function CheckSmallIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m3.5 8.5 3 3 6-7" />
    </Icon>
  );
}

export function RetryIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2.75 8a5.25 5.25 0 1 0 1.54-3.71M2.75 2.75v2.5h2.5" />
    </Icon>
  );
}

export function ToolIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M9.6 3.1a3 3 0 0 0 3.3 3.3L7 12.3a1.6 1.6 0 0 1-2.3-2.3l5.9-5.9Z" />
      <path d="M10.25 2.75 12 1.5l2.5 2.5-1.25 1.75" />
    </Icon>
  );
}

export function ChevronRightIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m6 3.5 4.5 4.5L6 12.5" />
    </Icon>
  );
}

export function ArrowDownIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M8 3v9.5M3.75 8.5 8 12.75l4.25-4.25" />
    </Icon>
  );
}

export function OfflineIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 2l12 12M5.2 8.9a4 4 0 0 1 2.1-1.05M2.6 6.3a7.6 7.6 0 0 1 2.2-1.5M10.3 7.5a4 4 0 0 1 1.1.9M8.2 4.4a7.6 7.6 0 0 1 5.2 1.9" />
      <circle cx="8" cy="11.75" r="0.75" fill="currentColor" stroke="none" />
    </Icon>
  );
}

export function SparkIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M8 1.75v3M8 11.25v3M1.75 8h3M11.25 8h3M3.6 3.6l1.9 1.9M10.5 10.5l1.9 1.9M3.6 12.4l1.9-1.9M10.5 5.5l1.9-1.9" />
    </Icon>
  );
}

export function AlertIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 4.75v3.75" />
      <circle cx="8" cy="11" r="0.75" fill="currentColor" stroke="none" />
    </Icon>
  );
}
