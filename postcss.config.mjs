// Tailwind CSS 4 runs as a single PostCSS plugin; it reads its theme from app/globals.css.
const config = {
  plugins: { "@tailwindcss/postcss": {} },
};

export default config;
