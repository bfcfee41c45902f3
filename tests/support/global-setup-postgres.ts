import { setupTemplate } from "./global-setup";

export default () => setupTemplate("postgres");
