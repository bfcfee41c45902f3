// The plain data the server layout hands to the shell's client components.
import type { Role } from "@/lib/auth/organizations";

export type ShellViewer = {
  userName: string;
  email: string;
  role: Role;
  organizationId: string;
  organizationName: string;
};

export type ShellOrganization = { id: string; name: string; role: Role };
