//! What kind of page this is, from single elements: `og:type` and offer microdata, and the
//! shop or blog platform's `body` classes.

use super::attrs::Attrs;

/// What an element says about the page being a product page: `<meta property="og:type">`
/// names the page's kind outright; schema.org microdata for an offer or a price suggests it.
pub(super) fn product_marker(a: &Attrs<'_>, name: &str) -> Option<ProductSignal> {
    if name == "meta" {
        if a.property.is_none_or(|p| p.trim() != "og:type") {
            return None;
        }
        let c = a.content?.trim().to_ascii_lowercase();
        return Some(if c == "product.group" {
            ProductSignal::Group
        } else if c.starts_with("product") {
            ProductSignal::Declared
        } else if c == "article" {
            ProductSignal::Article
        } else {
            return None;
        });
    }
    a.itemprop
        .is_some_and(|p| {
            p.split_ascii_whitespace()
                .any(|p| matches!(p, "offers" | "price" | "priceCurrency"))
        })
        .then_some(ProductSignal::Offer)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProductSignal {
    /// `og:type` product (or product.item, ...).
    Declared,
    /// `og:type` product.group: a shop's page for a group of products (Shopify declares its
    /// collection pages so), whose grid of products is its content.
    Group,
    /// `og:type` article: a buying guide's offers and Product JSON-LD do not make it a shop.
    Article,
    /// Offer/price microdata.
    Offer,
}

/// WordPress marks every archive page (category, tag, author, date, custom post type) with
/// `archive` on `body`, and search result pages with `search-results`.
pub(super) fn is_archive_body(class: &str) -> bool {
    has_class_token(class, &["archive", "search-results"])
}

/// Whether a class attribute holds one of `tokens` as a whole class name (ASCII case-blind).
fn has_class_token(class: &str, tokens: &[&str]) -> bool {
    class
        .split_ascii_whitespace()
        .any(|t| tokens.iter().any(|w| t.eq_ignore_ascii_case(w)))
}

/// A `body` class that shop platforms put on product pages: WooCommerce `single-product`,
/// Magento `catalog-product-view`, Shopify themes `template-product`. WordPress SEO plugins
/// declare every page `og:type` article, shop pages included; the platform's own class says
/// what the page is.
pub(super) fn is_product_body(class: &str) -> bool {
    has_class_token(
        class,
        &["single-product", "catalog-product-view", "template-product"],
    )
}
