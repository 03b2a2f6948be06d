// Stylesheets are imported for their effect; the clients' bundler (Vite) puts them into the page.
declare module '*.css';
