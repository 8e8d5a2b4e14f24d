"""The site's pages, one folder each: views, forms and what each page shows."""
