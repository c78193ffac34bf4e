"""Layer 5: answers as text and JSON (text), explanation trees and SVG pictures, odds charts."""
