// Starts Swagger UI on the service's own schema. A file, not an inline script: the
// Content-Security-Policy allows scripts only from the service.
window.ui = window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
});
