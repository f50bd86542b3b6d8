// The front end's layering (`npm run check`): app/ composes features; a feature is a slice of its
// own, using api/, lib/ and components/ but no other feature; components/ and lib/ are shared by
// all, so they use no feature. Something two features need moves down into lib/ or components/.
module.exports = {
  forbidden: [
    {
      name: "feature-to-feature",
      comment: "A feature imports no other feature: move what both need into lib/ or components/.",
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: { path: "^src/features/", pathNot: "^src/features/$1/" },
    },
    {
      name: "shared-to-feature",
      comment: "components/ and lib/ serve every feature, so they import none.",
      severity: "error",
      from: { path: "^src/(components|lib)/" },
      to: { path: "^src/features/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
