/** The page's stylesheet, bundled as text by esbuild (scripts/build-ui.js). */
declare module '*.css' {
  const text: string;
  export default text;
}
