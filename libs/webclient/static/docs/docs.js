// Swagger UI over every service's OpenAPI document (the list comes from the gateway).
fetch("services.json")
  .then((r) => r.json())
  .then((services) => {
    const wanted = new URLSearchParams(location.search).get("service");
    const urls = services.map((s) => ({ name: s.name, url: s.url }));
    window.ui = SwaggerUIBundle({
      urls,
      "urls.primaryName": urls.some((u) => u.name === wanted) ? wanted : urls[0].name,
      dom_id: "#swagger-ui",
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: "StandaloneLayout",
      persistAuthorization: true,
    });
  });
